//! The selective search: Multi-ProbCut (Buro), as Edax and Egaroucid use it.
//!
//! A deep search's value is predicted by a shallow one: on the project's own searches, the
//! value `d` plies deep is close to a straight line of the value `s` plies deep,
//! `deep ≈ slope * shallow + offset`, with a spread `sigma` (the standard deviation of what the
//! line leaves). A null-window node that asks "is the value above `alpha`?" first searches `s`
//! plies with a null window placed so that the answer, pushed through the line, clears the
//! window by `t` spreads: when it does, the node answers at once and its deep search is skipped
//! (a *probable* cutoff). The confidence `t` is the [`Selectivity`], named as Edax names it by the
//! share of a normal distribution within `t` spreads: 73% (t = 1.1), 87% (1.5), 95% (2.0),
//! 98% (2.6), 99% (3.3), and 100%, no pruning at all.
//!
//! - **Where.** Null-window nodes only ([`Searcher::probcut`], tried after the table and before
//!   the move sort): in the estimate search from [`PROBCUT_MIN_DEPTH`] plies left, the shallow
//!   depth [`shallow_of`] the node's; in the exact search from [`PROBCUT_END_MIN`](super::settings::PROBCUT_END_MIN) empties, the
//!   deep value being the exact score and the shallow depth [`end_shallow`]. Before the shallow
//!   search, the evaluation says whether a cut is likely at all (Edax's test), so most nodes pay
//!   one evaluation only. The shallow search itself is full width (no cutoff inside a cutoff's
//!   test).
//! - **The model.** `data/probcut.txt`, made by `fit-eval probcut-samples` and `probcut-fit`
//!   (`docs/probcut.md`): per board, band of empties and depth pair, the slope, offset and spread
//!   measured; where a pair was not measured (deeper than the samples), the spread from a model
//!   fitted over every measured pair (`ln sigma` linear in the empties and both depths), with
//!   slope 1 and offset 0. [`Model`] holds it per board, looked up by empties and depth.
//! - **What a selective value is.** A search at a selectivity below 100% stores its bounds with
//!   that level ([`super::table`]): only searches as selective trust them, and only full-width
//!   exact bounds are proofs. The exact solver reaches a proof by *iterative selectivity*
//!   ([`Searcher::solve_window`]): from [`super::settings::ITERATE_FROM`] empties it solves at
//!   rising levels first, so the last, full-width pass starts with a table of good moves and
//!   settled subtrees; every exact score is still a full-width proof.

use super::frontiers::{prunes_exact, solved_within};
use super::node::{Node, Window};
use super::regime::{Estimate, Exact, Regime};
use super::search::Searcher;
use super::selectivity::Selectivity;
use super::settings::{
    EXACT_MARGIN, EXTREME_DEPTH_STEP, EXTREME_FIRST_DEPTH, ITERATE_FROM, PROBCUT_MIN_DEPTH, PROOF_STEP,
    SELECTIVE_PASSES, SELECTIVE_TRIES, SOLVE_GUESS_DEPTH,
};
use super::table::FULL_WIDTH;
use crate::board::isa::Isa;
use crate::board::size::Size;
use crate::eval::Indexes;
use std::sync::OnceLock;

/// The shallow depth that predicts a search `deep` plies deep: about a quarter of it, rounded
/// to an even number, plus the parity of `deep` (Edax's rule), so both searches end on the same
/// side to move; two plies less for the shallowest.
pub const fn shallow_of(deep: u32) -> u32 {
    let s = 2 * (deep / 4) + (deep & 1);
    if s == 0 { deep.saturating_sub(2) } else { s }
}

/// The shallow depth that predicts the exact score of a position with `empties` empties: as
/// [`shallow_of`] would give for a search to the end, at most the deepest shallow depth measured
/// ([`END_SHALLOW_MAX`]).
pub const fn end_shallow(empties: u32) -> u32 {
    let s = shallow_of(empties);
    if s > END_SHALLOW_MAX { END_SHALLOW_MAX - (s - END_SHALLOW_MAX) % 2 } else { s }
}

/// The deepest shallow search [`end_shallow`] asks for.
pub const END_SHALLOW_MAX: u32 = 10;

/// One prediction: the shallow depth, its line and spread, and the evaluation's (shallow 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Cut {
    pub shallow: u32,
    pub slope: f32,
    pub offset: f32,
    pub sigma: f32,
    pub slope0: f32,
    pub offset0: f32,
    pub sigma0: f32,
}

/// The fitted model of one board: [`Cut`]s by empties and deep depth (`mid`), and by empties for
/// the exact score (`end`).
pub struct Model {
    side: usize,
    mid: Vec<Option<Cut>>,
    end: Vec<Option<Cut>>,
}

/// The deepest search depth the model is tabled for.
const MAX_DEPTH: usize = 64;

/// A measured cell of the file: (low, high, deep (`None`: exact), shallow) -> (slope, offset, sigma).
type Cells = Vec<(u32, u32, Option<u32>, u32, f32, f32, f32)>;

impl Model {
    /// The model of the board of side `side` from the text of `data/probcut.txt`.
    pub fn parse(text: &str, side: usize) -> Model {
        let mut mid_model: Option<[f32; 4]> = None;
        let mut end_model: Option<[f32; 3]> = None;
        let mut cells: Cells = Vec::new();
        for line in text.lines() {
            let w: Vec<&str> = line.split_whitespace().collect();
            if w.len() < 2 || w[0].starts_with('#') || w[1].parse() != Ok(side) {
                continue;
            }
            let f = |i: usize| w.get(i).and_then(|t| t.parse::<f32>().ok());
            let u = |i: usize| w.get(i).and_then(|t| t.parse::<u32>().ok());
            match (w[0], w.get(2).copied()) {
                ("model", Some("mid")) => {
                    if let (Some(a), Some(b), Some(c), Some(d)) = (f(3), f(4), f(5), f(6)) {
                        mid_model = Some([a, b, c, d]);
                    }
                }
                ("model", Some("end")) => {
                    if let (Some(a), Some(b), Some(c)) = (f(3), f(4), f(5)) {
                        end_model = Some([a, b, c]);
                    }
                }
                ("mid", _) => {
                    if let (Some(lo), Some(hi), Some(d), Some(s), Some(a), Some(b), Some(sg)) =
                        (u(2), u(3), u(4), u(5), f(6), f(7), f(8))
                    {
                        cells.push((lo, hi, Some(d), s, a, b, sg));
                    }
                }
                ("end", _) => {
                    if let (Some(lo), Some(hi), Some(s), Some(a), Some(b), Some(sg)) =
                        (u(2), u(3), u(4), f(5), f(6), f(7))
                    {
                        cells.push((lo, hi, None, s, a, b, sg));
                    }
                }
                _ => {}
            }
        }
        let squares = side * side;
        let cell = |n: u32, deep: Option<u32>, s: u32| -> Option<(f32, f32, f32)> {
            cells.iter().find(|c| c.0 <= n && n <= c.1 && c.2 == deep && c.3 == s).map(|c| (c.4, c.5, c.6))
        };
        let mid_sigma = |n: u32, d: u32, s: u32| {
            mid_model.map(|m| (m[0] + m[1] * n as f32 + m[2] * d as f32 + m[3] * s as f32).exp())
        };
        let end_sigma = |n: u32, s: u32| end_model.map(|m| (m[0] + m[1] * n as f32 + m[2] * s as f32).exp());
        // A prediction from its two lines, the shallow search's and the evaluation's.
        let joined = |s: u32, line: Option<(f32, f32, f32)>, line0: Option<(f32, f32, f32)>| {
            let (l, l0) = (line?, line0?);
            Some(Cut { shallow: s, slope: l.0, offset: l.1, sigma: l.2, slope0: l0.0, offset0: l0.1, sigma0: l0.2 })
        };
        let mut mid = vec![None; (squares + 1) * (MAX_DEPTH + 1)];
        let mut end = vec![None; squares + 1];
        for n in 0..=squares as u32 {
            for d in PROBCUT_MIN_DEPTH..=MAX_DEPTH as u32 {
                let s = shallow_of(d);
                let line = cell(n, Some(d), s).or_else(|| mid_sigma(n, d, s).map(|sg| (1.0, 0.0, sg)));
                let line0 = cell(n, Some(d), 0).or_else(|| mid_sigma(n, d, 0).map(|sg| (1.0, 0.0, sg)));
                mid[n as usize * (MAX_DEPTH + 1) + d as usize] = joined(s, line, line0);
            }
            let s = end_shallow(n);
            let line = cell(n, None, s).or_else(|| end_sigma(n, s).map(|sg| (1.0, 0.0, sg)));
            let line0 = cell(n, None, 0).or_else(|| end_sigma(n, 0).map(|sg| (1.0, 0.0, sg)));
            end[n as usize] = joined(s, line, line0);
        }
        Model { side, mid, end }
    }

    /// The shipped model of `size` (`data/probcut.txt`, built into the binary).
    pub fn shipped(size: Size) -> &'static Model {
        static MODELS: OnceLock<[Model; 3]> = OnceLock::new();
        let text = include_str!("../../data/probcut.txt");
        let models = MODELS.get_or_init(|| [Model::parse(text, 4), Model::parse(text, 6), Model::parse(text, 8)]);
        match size {
            Size::Four => &models[0],
            Size::Six => &models[1],
            Size::Eight => &models[2],
        }
    }

    /// The board side.
    pub fn side(&self) -> usize {
        self.side
    }

    /// The prediction of a `deep`-ply estimate of a position with `empties` empties.
    #[inline(always)]
    pub fn mid(&self, empties: u32, deep: u32) -> Option<Cut> {
        if deep as usize > MAX_DEPTH {
            return None;
        }
        *self.mid.get(empties as usize * (MAX_DEPTH + 1) + deep as usize)?
    }

    /// The prediction of the exact score of a position with `empties` empties.
    #[inline(always)]
    pub fn end(&self, empties: u32) -> Option<Cut> {
        *self.end.get(empties as usize)?
    }
}

/// The model of the board of side `N`.
#[inline(always)]
fn model<const N: usize>() -> &'static Model {
    Model::shipped(match N {
        4 => Size::Four,
        6 => Size::Six,
        _ => Size::Eight,
    })
}

impl<'a, const N: usize, const DISCS: bool, I: Isa> Searcher<'a, N, DISCS, I> {
    /// The probable cutoff of a null-window node (window (`alpha`, `alpha + 1`)) at the
    /// searcher's selectivity, if there is one: `Some(alpha + 1)` when the deep value is
    /// probably above `alpha`, `Some(alpha)` when probably at or below it, `None` when the node
    /// must be searched (or the searcher is full width). After a stop: `Some(0)`, meaningless,
    /// as every stopped search's value.
    #[inline(always)]
    pub(super) fn probcut<R: Regime>(&mut self, node: Node<'_, R::State>, alpha: i32) -> Option<i32> {
        if self.selectivity == FULL_WIDTH {
            return None;
        }
        let cut = if R::TO_THE_END {
            if !prunes_exact(node.n) {
                return None;
            }
            model::<N>().end(node.n)?
        } else {
            if node.depth < PROBCUT_MIN_DEPTH {
                return None;
            }
            model::<N>().mid(node.n, node.depth)?
        };
        // A shallow search the exact search would take over is no prediction.
        if solved_within(node.n, cut.shallow) {
            return None;
        }
        self.probcut_with(node.p, node.o, &R::indexes(node, self.layout), node.n, alpha, cut)
    }

    #[inline(never)]
    fn probcut_with(&mut self, p: u64, o: u64, ix: &Indexes, n: u32, alpha: i32, cut: Cut) -> Option<i32> {
        let beta = alpha + 1;
        let t = Selectivity::from_level(self.selectivity).t();
        let eval = self.evaluate_with_moves(p, o, &ix.own, self.isa.legal_moves::<N>(p, o)) as f32;
        let predicted = cut.slope0 * eval + cut.offset0;
        let eval_error = t * 0.5 * (cut.sigma0 + cut.sigma);
        let saved = self.selectivity;
        self.selectivity = FULL_WIDTH;
        let mut answer = None;
        // Probably above: the shallow value clears beta by t spreads, through the line.
        let high = ((beta as f32 + t * cut.sigma - cut.offset) / cut.slope).ceil() as i32;
        if predicted >= beta as f32 - eval_error && high < Self::MAX {
            let v = self.nws::<Estimate>(Node { p, o, x: ix, depth: cut.shallow, n }, high - 1);
            if self.stopped {
                answer = Some(0);
            } else if v >= high {
                answer = Some(beta);
            }
        }
        // Probably at or below alpha.
        let low = ((alpha as f32 - t * cut.sigma - cut.offset) / cut.slope).floor() as i32;
        if answer.is_none() && predicted < alpha as f32 + eval_error && low > -Self::MAX {
            let v = self.nws::<Estimate>(Node { p, o, x: ix, depth: cut.shallow, n }, low);
            if self.stopped {
                answer = Some(0);
            } else if v <= low {
                answer = Some(alpha);
            }
        }
        self.selectivity = saved;
        answer
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

    #[test]
    fn shallow_depths_keep_the_parity_and_stay_below() {
        for deep in 3..40 {
            let s = shallow_of(deep);
            assert!(s < deep && (deep - s).is_multiple_of(2), "{deep} -> {s}");
        }
        assert_eq!([shallow_of(3), shallow_of(4), shallow_of(8), shallow_of(13)], [1, 2, 4, 7]);
        for n in 10..60 {
            assert!(end_shallow(n) <= END_SHALLOW_MAX);
        }
    }

    #[test]
    fn every_board_has_a_model() {
        for size in [Size::Six, Size::Eight] {
            let m = Model::shipped(size);
            let n = (size.squares() / 2) as u32;
            let c = m.mid(n, 10).expect("a mid cut");
            assert!(c.sigma > 0.0 && c.sigma0 > 0.0 && c.shallow == shallow_of(10));
            assert!(m.end(20).is_some());
        }
    }
}
