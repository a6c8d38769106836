//! The solver thread's reports: filed under the position they are about, never elsewhere.

use super::super::worker::{EventKind, SolverEvent};
use super::{Effect, Model};
use crate::notation::transcript;
use crate::solver::ChildValue;

impl Model {
    pub(super) fn solver(&mut self, ev: SolverEvent) -> Vec<Effect> {
        let SolverEvent { job, position, kind } = ev;
        let current = self.job.as_ref().is_some_and(|j| j.id == job && j.position == position);
        // A job asked for before the selectivity changed: its estimates are of the old level.
        let old_level = job < self.selective_since;
        let legal = position.legal_moves();
        match kind {
            EventKind::Child(c) if old_level && matches!(c.kind, crate::solver::Kind::Estimate { .. }) => {}
            EventKind::Line { .. } if old_level => {}
            EventKind::Child(c) => {
                // Filed under its own position: a stale report never lands on the wrong one.
                let bound = position.size().squares() as i32;
                if legal.contains(c.square) && c.score.abs() <= bound {
                    // Symmetric twins are worth the same: each shows the value found for any.
                    let a = self.cache.entry(position).or_default();
                    if a.twins.is_empty() {
                        a.twins = crate::solver::twin_groups(&position, &legal.reading_order());
                    }
                    let group = a.twins.iter().find(|g| g.contains(&c.square)).cloned();
                    for square in group.unwrap_or_else(|| vec![c.square]) {
                        a.record(ChildValue { square, ..c });
                    }
                }
            }
            EventKind::Phase(phase) => {
                if current && let Some(j) = self.job.as_mut() {
                    j.phase = Some(phase);
                }
            }
            EventKind::Line { depth, selectivity, moves } => {
                // Only a line that plays from here, its first move a child with a value.
                let plays = transcript::play(&position, &transcript::format(&moves)).is_ok();
                let kind = crate::solver::Kind::Estimate { depth, selectivity };
                if let Some(a) = self.cache.get_mut(&position)
                    && plays
                    && moves.first().is_some_and(|&m| a.value(m).is_some())
                    && a.line.as_ref().is_none_or(|(k, _)| k.strength() <= kind.strength())
                {
                    a.line = Some((kind, moves));
                }
            }
            EventKind::Depth(depth) => {
                if current && let Some(j) = self.job.as_mut() {
                    j.depth = Some(depth);
                }
            }
            EventKind::Progress { nodes, elapsed } => {
                if current && let Some(j) = self.job.as_mut() {
                    j.nodes = nodes;
                    j.elapsed = elapsed;
                }
            }
            EventKind::ChildrenDone { nodes, elapsed } => {
                let a = self.cache.entry(position).or_default();
                if a.exact_count() == legal.count() as usize {
                    a.complete = true;
                    a.nodes = nodes;
                    a.elapsed = elapsed;
                }
                if current && let Some(j) = self.job.as_mut() {
                    j.nodes = nodes;
                    j.elapsed = elapsed;
                }
            }
            EventKind::Pv { moves, nodes, elapsed } => {
                let plays = transcript::play(&position, &transcript::format(&moves))
                    .is_ok_and(|line| moves.is_empty() || line.end().is_game_over());
                if let Some(a) = self.cache.get_mut(&position).filter(|a| a.complete)
                    && plays
                {
                    a.pv = Some(moves);
                    a.nodes = nodes;
                    a.elapsed = elapsed;
                }
                if current {
                    self.job = None;
                    if self.reviewing() {
                        return self.review_step();
                    }
                }
            }
            EventKind::Why { played, why } => {
                self.whys.insert((position, played), why);
            }
            EventKind::Reviewed { played, children, evaluator } => {
                self.review_evaluator = evaluator;
                let legal_count = legal.count() as usize;
                let bound = position.size().squares() as i32;
                let sound = children.len() == legal_count
                    && children.iter().all(|c| legal.contains(c.square) && c.score.abs() <= bound);
                if sound && self.reviewed.contains(&(position, played)) {
                    // A proof is a proof at any selectivity: the cache shows it too.
                    let a = self.cache.entry(position).or_default();
                    for c in children.iter().filter(|c| c.kind == crate::solver::Kind::Exact) {
                        a.record(*c);
                    }
                    self.verdicts.insert((position, played), children);
                }
            }
            EventKind::Cancelled => {
                if current {
                    self.job = None;
                    // A review step ended: the next one.
                    if self.reviewing() {
                        return self.review_step();
                    }
                }
            }
        }
        Vec::new()
    }
}
