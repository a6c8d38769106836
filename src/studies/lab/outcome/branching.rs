//! Alpha-beta with branching-number thresholds, the article's section 4 made sound.
//!
//! The article passes two thresholds down the tree, computed independently as in path
//! branching-number search: an AND-branching threshold, kept through the nodes where the prover
//! chooses and lowered by `children - 1` at the nodes where the opponent chooses (every other
//! child would need a proof too), and an OR-branching threshold, the other way round. Its Fig. 7:
//! a threshold of 5 at a node with three children gives the chosen child 5 - 2 = 3, the OR node
//! below passes 3 unchanged, and its child over two gets 3 - 1 = 2; the search goes down until a
//! threshold is spent, and the root's thresholds grow by iterative deepening. The article leaves
//! open what a spent threshold means; its search was slower than plain alpha-beta.
//!
//! Here, in negamax form, each node answers a yes/no question for its side to move (the answer is
//! yes when some child's is no) and holds two thresholds: `mine`, lowered by `k - 1` when its
//! `k` children are searched (the prover's alternatives for this question), and `theirs`, which
//! becomes the child's `mine` unchanged. A child is searched while at least one of its
//! thresholds is not spent (`>= 0`), so the search follows every path that is narrow for a proof
//! or narrow for a disproof, and a path wide for both is cut. The answer is three-valued: yes,
//! no, or unknown when a cut child could have changed it. A child that answers no makes the
//! node's answer yes at once (the cut-off); every child answering yes makes it no; otherwise it is
//! unknown. Children are tried fewest replies first, as in sorted alpha-beta, and positions of
//! [`LEAF_EMPTIES`] empty squares or fewer are decided by unsorted alpha-beta, as below WPNS.
//!
//! It is sound by construction: yes and no are only ever concluded from answers that are known.
//! The root's thresholds start at [`Schedule::initial`] and grow by [`Schedule::step`] until the
//! answer is known, which it is at the latest when no path is cut (thresholds at least the sum of
//! `k - 1` along every path), so the deepening ends. Nothing is kept between iterations: each one
//! searches again from the root, as the article's did.

use super::alpha_beta::{answer, expand};
use super::{Counter, LEAF_EMPTIES, Outcome, Question, by_questions, empties, final_sign};
use crate::solver::plain::sort_by_mobility;

/// The root's thresholds: both start at `initial` and grow by `step` each iteration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Schedule {
    /// The first iteration's thresholds.
    pub initial: u32,
    /// What each further iteration adds (at least 1).
    pub step: u32,
}

impl Schedule {
    /// The schedule [`super::Method::BranchingThreshold`] runs (the figures that led to it are in
    /// `docs/lab.md`).
    pub const DEFAULT: Schedule = Schedule { initial: 16, step: 16 };
}

/// An answer that may be unknown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Yes,
    No,
    Unknown,
}

/// The search of an `N x N` board.
struct Branching<'c, 'a, const N: usize> {
    counter: &'c mut Counter<'a>,
}

impl<const N: usize> Branching<'_, '_, N> {
    /// The answer to `q` at `(p, o)` within the thresholds `mine` and `theirs` (meaningless once
    /// the counter halts).
    fn search(&mut self, p: u64, o: u64, q: Question, mine: i32, theirs: i32) -> Answer {
        if self.counter.visit() {
            return Answer::Unknown;
        }
        if empties::<N>(p, o) <= LEAF_EMPTIES {
            return if answer::<N>(self.counter, p, o, q) { Answer::Yes } else { Answer::No };
        }
        let mut list = [(0u64, 0u64); 64];
        let Some(count) = expand::<N>(p, o, &mut list) else {
            return if q.holds(final_sign::<N>(p, o)) { Answer::Yes } else { Answer::No };
        };
        let list = &mut list[..count];
        sort_by_mobility::<N>(list);
        // The child's thresholds: ours swapped, ours lowered by the alternatives here.
        let (child_mine, child_theirs) = (theirs, mine - (count as i32 - 1));
        if child_mine < 0 && child_theirs < 0 {
            return Answer::Unknown;
        }
        let mut unknown = false;
        for &(cp, co) in list.iter() {
            match self.search(cp, co, q.child(), child_mine, child_theirs) {
                Answer::No => return Answer::Yes,
                Answer::Unknown => unknown = true,
                Answer::Yes => {}
            }
            if self.counter.halted() {
                return Answer::Unknown;
            }
        }
        if unknown { Answer::Unknown } else { Answer::No }
    }

    /// The answer to `q` at the root, deepening by `schedule`, and the iterations it took (`None`
    /// once the counter halts).
    fn deepen(&mut self, p: u64, o: u64, q: Question, schedule: Schedule) -> Option<(bool, u32)> {
        let mut threshold = schedule.initial.min(i32::MAX as u32) as i32;
        let mut iterations = 0;
        loop {
            iterations += 1;
            let answer = self.search(p, o, q, threshold, threshold);
            if self.counter.halted() {
                return None;
            }
            match answer {
                Answer::Yes => return Some((true, iterations)),
                Answer::No => return Some((false, iterations)),
                Answer::Unknown => threshold = threshold.saturating_add(schedule.step.clamp(1, 1 << 16) as i32),
            }
        }
    }
}

/// The outcome of `(p, o)` by the branching-threshold search, and its iterations over both
/// questions (`None` once the counter halts).
pub(super) fn prove<const N: usize>(
    counter: &mut Counter,
    p: u64,
    o: u64,
    schedule: Schedule,
) -> Option<(Outcome, u32)> {
    let mut search = Branching::<N> { counter };
    let mut iterations = 0;
    let outcome = by_questions(|q| {
        let (yes, n) = search.deepen(p, o, q, schedule)?;
        iterations += n;
        Some(yes)
    })?;
    Some((outcome, iterations))
}
