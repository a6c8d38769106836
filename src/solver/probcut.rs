//! The selective search: Multi-ProbCut (Buro), as Edax and Egaroucid use it (floor 4 of the search
//! core, `mod.rs`: a pruning rule over the node routines and the estimate regime below it).
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
use super::midgame::Estimate;
use super::node::Node;
use super::regime::Regime;
use super::searcher::Searcher;
use super::selectivity::Selectivity;
use super::settings::PROBCUT_MIN_DEPTH;
use super::table::FULL_WIDTH;
use crate::board::isa::Isa;
use crate::board::size::Size;
use crate::eval::{Evaluator, Indexes};
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
    pub(crate) slope0: f32,
    pub(crate) offset0: f32,
    pub(crate) sigma0: f32,
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

    /// The shipped model of `size` for the pattern tables (`data/probcut.txt`, built into the
    /// binary).
    pub fn shipped(size: Size) -> &'static Model {
        Model::shipped_for(size, Evaluator::Patterns)
    }

    /// The shipped model of `size` for the search that reads `evaluator` at its leaves: the
    /// network's lines (`data/probcut-network.txt`, measured on searches that read it) where
    /// that file has the board, else the pattern tables' (a network reads the tables on the
    /// boards it has no file for).
    pub fn shipped_for(size: Size, evaluator: Evaluator) -> &'static Model {
        static MODELS: OnceLock<[Model; 3]> = OnceLock::new();
        static NETWORK: OnceLock<[Option<Model>; 3]> = OnceLock::new();
        let slot = match size {
            Size::Four => 0,
            Size::Six => 1,
            Size::Eight => 2,
        };
        if evaluator == Evaluator::Network {
            let text = include_str!("../../data/probcut-network.txt");
            let models = NETWORK
                .get_or_init(|| [4, 6, 8].map(|side| Model::describes(text, side).then(|| Model::parse(text, side))));
            if let Some(m) = &models[slot] {
                return m;
            }
        }
        let text = include_str!("../../data/probcut.txt");
        let models = MODELS.get_or_init(|| [Model::parse(text, 4), Model::parse(text, 6), Model::parse(text, 8)]);
        &models[slot]
    }

    /// Whether `text` holds a model of the board of side `side`.
    fn describes(text: &str, side: usize) -> bool {
        text.lines().any(|line| {
            let mut w = line.split_whitespace();
            w.next() == Some("model") && w.next().and_then(|t| t.parse().ok()) == Some(side)
        })
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
            self.probcut_model.end(node.n)?
        } else {
            if node.depth < PROBCUT_MIN_DEPTH {
                return None;
            }
            self.probcut_model.mid(node.n, node.depth)?
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
}

/// The model of the board of side `N` for the search that reads `evaluator`.
pub(super) fn model_of<const N: usize>(evaluator: Evaluator) -> &'static Model {
    Model::shipped_for(Size::from_n(N).expect("a board of 4, 6 or 8"), evaluator)
}

#[cfg(test)]
mod tests {
    use super::*;
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
    fn the_network_has_its_own_8x8_model_and_the_tables_elsewhere() {
        let (tables, network) = (Model::shipped(Size::Eight), Model::shipped_for(Size::Eight, Evaluator::Network));
        assert!(!std::ptr::eq(tables, network));
        // Measured on the network's searches: its spreads are not the tables'.
        let (a, b) = (tables.end(22).unwrap(), network.end(22).unwrap());
        assert!(a.sigma != b.sigma && b.sigma > 0.0 && b.shallow == a.shallow);
        for size in [Size::Four, Size::Six] {
            assert!(std::ptr::eq(Model::shipped(size), Model::shipped_for(size, Evaluator::Network)));
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
