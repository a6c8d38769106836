//! The review of the line shown (`:review`): the solver thread examines every position along it
//! in turn with the review's own solver ([`crate::studies::review::Reviewer::examine`], for
//! [`super::REVIEW_BUDGET`], `review`'s default budget), the one on screen first, so the marks of
//! the history and the score graph fill in; it follows the line when it changes, and a position
//! reviewed once is not reviewed again. The marks are judged on those values alone
//! ([`Model::mark`]), never on what else the explorer found, so they are `review`'s marks.

use super::{Effect, Model};
use crate::board::position::Color;
use crate::notation::printable::count;
use crate::studies::review::Mark;

impl Model {
    /// `:review`: on (the line's positions are analysed in turn) or off.
    pub(super) fn set_review(&mut self, on: bool) -> Vec<Effect> {
        self.review = on;
        if on {
            let left = self.review_plan().len();
            if left == 0 {
                let text = self.review_summary();
                self.say(format!("the line is reviewed already: {text}"));
            } else {
                self.say(format!(
                    "reviewing the line: {} to examine at review's budget ({:.0}s: depth {}, {} where a mark is in doubt) · marks in the history and the graph, ~ from estimates",
                    count(left as i64, "position", "positions"),
                    super::REVIEW_BUDGET.as_secs_f64(),
                    crate::studies::review::gate_depth(super::REVIEW_BUDGET),
                    crate::studies::review::verdict_depth(super::REVIEW_BUDGET),
                ));
            }
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

    /// The marks along the line per side: "black ?! 1 ? 0 ?? 0 · white ?! 0 ? 1 ?? 0", and how
    /// many come from estimates.
    pub fn review_summary(&self) -> String {
        let mut counts = [[0usize; 3]; 2];
        let mut estimated = 0;
        for id in self.tree.line() {
            let (Some((mark, proven)), Some(parent)) = (self.mark(id), self.tree.parent(id)) else { continue };
            let side = self.tree.position_of(parent).after_forced_pass().0.to_move();
            counts[usize::from(side == Color::White)][mark as usize] += 1;
            estimated += usize::from(!proven);
        }
        let side = |k: usize| {
            Mark::ALL.iter().map(|m| format!("{} {}", m.symbol(), counts[k][*m as usize])).collect::<Vec<_>>().join(" ")
        };
        let tail = if estimated > 0 { format!(" ({estimated} from estimates)") } else { String::new() };
        format!("black {} · white {}{tail}", side(0), side(1))
    }
}
