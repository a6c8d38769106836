//! What is known of each position: the cache's entry ([`PositionValues`]: each move's best value
//! so far, the line, the proof), how sure a value is ([`ScoreKind`], [`Score`]), and whether the
//! best move known is proven ([`Known`]).

use crate::board::square::Square;
use crate::solver::{ChildValue, Selectivity};
use std::time::Duration;

/// How sure a shown score is: the solver's [`Kind`](crate::solver::Kind). An estimate of some
/// depth (drawn dim, `+12 @14` in the table), a proven win, loss or draw (`W`, `L`, `D`), or the
/// exact score.
pub use crate::solver::Kind as ScoreKind;

/// A score as the screen shows it: the disc difference from the side to move at the parent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    /// The value.
    pub value: i32,
    /// How sure it is.
    pub kind: ScoreKind,
}

/// What the explorer knows of one position's moves (the cache's entry; one search's result is a
/// [`crate::solver::Analysis`]): filed under that position, shown nowhere else.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PositionValues {
    /// The best value known for each child so far, one entry per move (estimates, proven
    /// outcomes or exact scores; a value is only replaced by one at least as strong).
    pub children: Vec<ChildValue>,
    /// Whether every child's exact score is known.
    pub complete: bool,
    /// The principal variation to the end, once known.
    pub pv: Option<Vec<Square>>,
    /// The line of the deepest completed estimate (its kind, an estimate of a depth and a
    /// selectivity, then the moves, the best child first), shown until the principal variation
    /// replaces it.
    pub line: Option<(ScoreKind, Vec<Square>)>,
    /// Nodes the search took (once complete).
    pub nodes: u64,
    /// Time the search took (once complete).
    pub elapsed: Duration,
    /// Each child's estimates, kept after a proof replaces them (the deepest ranks proven wins
    /// among themselves, and the earlier ones equal values: [`crate::solver::rank_key`]).
    pub estimates: Vec<ChildEstimates>,
    /// The legal moves grouped by symmetric twins (filled on the first report).
    pub twins: Vec<Vec<Square>>,
}

/// A child's estimates of consecutive depths, the deepest last.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildEstimates {
    /// The move.
    pub square: Square,
    /// The depth of the last estimate.
    pub depth: u32,
    /// How selective they are (a run is of one level: another starts a new run).
    pub selectivity: Selectivity,
    /// The estimates of depths `depth + 1 - values.len()` to `depth`.
    pub values: Vec<i32>,
}

impl PositionValues {
    /// The key `c` ranks by among the children, best highest ([`crate::solver::rank_key`]).
    pub fn rank_key(&self, c: &ChildValue) -> (i32, Vec<i32>) {
        let e = self.estimates.iter().find(|e| e.square == c.square).map_or(&[][..], |e| &e.values[..]);
        crate::solver::rank_key(c.score, c.kind, e)
    }

    /// The best value known for `square`.
    pub fn value(&self, square: Square) -> Option<ChildValue> {
        self.children.iter().find(|c| c.square == square).copied()
    }

    /// The exact score of `square`, if proven.
    pub fn score(&self, square: Square) -> Option<i32> {
        self.value(square).filter(|c| c.kind == ScoreKind::Exact).map(|c| c.score)
    }

    /// How many children have their exact score.
    pub(crate) fn exact_count(&self) -> usize {
        self.children.iter().filter(|c| c.kind == ScoreKind::Exact).count()
    }

    /// The position's exact value (the best child's score), once every child is proven.
    pub fn best(&self) -> Option<i32> {
        if self.complete { self.children.iter().map(|c| c.score).max() } else { None }
    }

    /// The deepest estimate among the children (its kind: depth and selectivity), if any is
    /// only estimated.
    pub(crate) fn deepest_estimate(&self) -> Option<ScoreKind> {
        self.children
            .iter()
            .map(|c| c.kind)
            .filter(|k| matches!(k, ScoreKind::Estimate { .. }))
            .max_by_key(|k| k.strength())
    }

    /// Forgets every estimate (the children only estimated, their runs, the estimate's line):
    /// what a change of selectivity leaves (proven outcomes, exact scores, the principal
    /// variation stay).
    pub(crate) fn forget_estimates(&mut self) {
        self.children.retain(|c| !matches!(c.kind, ScoreKind::Estimate { .. }));
        let children = &self.children;
        self.estimates.retain(|e| children.iter().any(|c| c.square == e.square));
        self.line = None;
    }

    /// The child the values rank best (an exact score or an estimate by its score, a proven
    /// win above every draw and a draw above every loss), equal ones by the deepest earlier
    /// estimate that tells them apart ([`PositionValues::rank_key`]), then in reading order.
    pub fn best_child(&self) -> Option<ChildValue> {
        self.children.iter().max_by_key(|c| (self.rank_key(c), std::cmp::Reverse(c.square))).copied()
    }

    /// Files a child's value, unless a stronger one is known.
    pub fn record(&mut self, child: ChildValue) {
        if let ScoreKind::Estimate { depth, selectivity } = child.kind {
            let fresh = ChildEstimates { square: child.square, depth, selectivity, values: vec![child.score] };
            match self.estimates.iter_mut().find(|e| e.square == child.square) {
                // Another level starts a new run.
                Some(e) if e.selectivity != selectivity => *e = fresh,
                // The next depth extends the run; a gap starts a new one.
                Some(e) if depth == e.depth + 1 => {
                    e.values.push(child.score);
                    e.depth = depth;
                }
                Some(e) if depth > e.depth => *e = fresh,
                Some(e) if depth == e.depth => *e.values.last_mut().expect("at least one estimate") = child.score,
                Some(_) => {}
                None => self.estimates.push(fresh),
            }
        }
        match self.children.iter_mut().find(|c| c.square == child.square) {
            Some(c) if child.kind.strength() >= c.kind.strength() => *c = child,
            Some(_) => {}
            None => self.children.push(child),
        }
    }
}

/// What the best move known is, for `b` and auto-play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Known {
    /// The move is forced (a pass) or proven best.
    Proven,
    /// The move is the best by the values known so far, none a proof that it is best.
    Unproven(Score),
}
