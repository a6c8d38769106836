//! Alpha-beta on outcomes, as the article runs it: no depth limit, no evaluation, no table, no
//! iterative deepening. A node's value is the sign of the final disc difference from the side to
//! move (-1, 0, +1), so the window (-1, 1) proves win, loss or draw in one search, and the null
//! windows (0, 1) and (-1, 0) answer "a win?" and "a draw or better?" (WPNS and the
//! branching-threshold search use those below [`super::LEAF_EMPTIES`]).
//!
//! Unsorted, the moves are tried in generation order: reading order from `a1`, the most
//! significant used bit, down. Sorted, the children are tried by their own number of legal moves
//! (the opponent's replies), fewest first, ties in reading order.

use super::{Counter, Question, final_sign};
use crate::board::rules::legal_moves;
use crate::solver::plain::{self, Leaves, children};

/// The children of `(p, o)` into `out` in reading order, a pass being one child (the same discs,
/// the other side to move); `None` when the game is over.
#[inline]
pub(super) fn expand<const N: usize>(p: u64, o: u64, out: &mut [(u64, u64); 64]) -> Option<usize> {
    let moves = legal_moves::<N>(p, o);
    if moves != 0 {
        Some(children::<N>(p, o, moves, out))
    } else if legal_moves::<N>(o, p) != 0 {
        out[0] = (o, p);
        Some(1)
    } else {
        None
    }
}

/// The outcome search's nodes: counted by the [`Counter`], a finished game worth its sign.
struct Signs<'c, 'a, const N: usize>(&'c mut Counter<'a>);

impl<const N: usize> Leaves for Signs<'_, '_, N> {
    #[inline]
    fn visit(&mut self) -> bool {
        self.0.visit()
    }

    #[inline]
    fn halted(&self) -> bool {
        self.0.halted()
    }

    #[inline]
    fn finished(&mut self, p: u64, o: u64) -> i32 {
        final_sign::<N>(p, o)
    }
}

/// Fail-soft alpha-beta over outcome signs ([`crate::solver::plain::alpha_beta`]); `SORTED` sorts
/// the children by mobility. Returns 0 once the counter halts (the caller checks it).
#[inline]
pub(super) fn alpha_beta<const N: usize, const SORTED: bool>(
    counter: &mut Counter,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
) -> i32 {
    plain::alpha_beta::<N, SORTED, _>(&mut Signs::<N>(counter), p, o, alpha, beta)
}

/// The answer to `question` at `(p, o)` by unsorted alpha-beta with its null window (meaningless
/// once the counter halts).
pub(super) fn answer<const N: usize>(counter: &mut Counter, p: u64, o: u64, question: Question) -> bool {
    let (alpha, beta) = question.window();
    let v = alpha_beta::<N, false>(counter, p, o, alpha, beta);
    question.holds(v)
}
