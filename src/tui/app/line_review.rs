//! The review of the line shown (`:review`): the solver thread analyses every position along it
//! in turn, [`super::REVIEW_BUDGET`] each (the one on screen first), so the marks of the history
//! and the score graph fill in; it refines as the user stays (the position on screen deepens once
//! the line is done) and follows the line when it changes.

use super::{Effect, Model};
use crate::Color;
use crate::review::Mark;

impl Model {
    /// `:review`: on (the line's positions are analysed in turn) or off.
    pub(super) fn set_review(&mut self, on: bool) -> Vec<Effect> {
        self.review = on.then(std::collections::HashSet::new);
        if on {
            let n = self.tree.line().len();
            self.say(format!(
                "reviewing the line: {}, {:.0}s each · marks ?! ? ?? in the history, the graph below it",
                crate::notation::printable::count(n as i64, "position", "positions"),
                super::REVIEW_BUDGET.as_secs_f64()
            ));
        } else {
            self.say("review off");
        }
        // The job running is for the old plan.
        let mut effects: Vec<Effect> = self.job.take().map(|_| Effect::Cancel).into_iter().collect();
        effects.extend(self.arrived());
        effects
    }

    /// A review step ended: the next, or, when the line is done, the summary.
    pub(super) fn review_step(&mut self) -> Vec<Effect> {
        let effects = self.arrived();
        let still = effects.iter().any(|e| matches!(e, Effect::Review { .. }));
        if !still && self.reviewing() {
            let text = self.review_summary();
            self.say(format!("review done: {text}"));
        }
        effects
    }

    /// The marks along the line per side: "black ?! 1 ? 0 ?? 0 · white ?! 0 ? 1 ?? 0".
    pub fn review_summary(&self) -> String {
        let mut counts = [[0usize; 3]; 2];
        for id in self.tree.line() {
            let (Some(mark), Some(parent)) = (self.mark(id), self.tree.parent(id)) else { continue };
            let side = self.tree.position_of(parent).after_forced_pass().0.to_move();
            counts[usize::from(side == Color::White)][mark as usize] += 1;
        }
        let side = |k: usize| {
            Mark::ALL.iter().map(|m| format!("{} {}", m.symbol(), counts[k][*m as usize])).collect::<Vec<_>>().join(" ")
        };
        format!("black {} · white {}", side(0), side(1))
    }
}
