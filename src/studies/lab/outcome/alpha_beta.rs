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
use crate::board::rules::{flips, legal_moves};

/// The children of `(p, o)` for the moves in `moves`, in reading order: `(child's player,
/// child's opponent)`, written into `out`; returns how many.
#[inline]
pub(super) fn children<const N: usize>(p: u64, o: u64, mut moves: u64, out: &mut [(u64, u64); 64]) -> usize {
    let mut count = 0;
    while moves != 0 {
        let sq = 63 - moves.leading_zeros();
        moves ^= 1 << sq;
        let f = flips::<N>(p, o, sq);
        out[count] = (o ^ f, p ^ f ^ (1 << sq));
        count += 1;
    }
    count
}

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

/// Sorts `children` by their own mobility, fewest moves first, keeping reading order among equals
/// (an insertion sort: stable, and the lists are short).
#[inline]
pub(super) fn sort_by_mobility<const N: usize>(children: &mut [(u64, u64)]) {
    let mut keys = [0u32; 64];
    for (i, &(cp, co)) in children.iter().enumerate() {
        keys[i] = legal_moves::<N>(cp, co).count_ones();
    }
    for i in 1..children.len() {
        let (key, child) = (keys[i], children[i]);
        let mut j = i;
        while j > 0 && keys[j - 1] > key {
            keys[j] = keys[j - 1];
            children[j] = children[j - 1];
            j -= 1;
        }
        keys[j] = key;
        children[j] = child;
    }
}

/// Fail-soft alpha-beta over outcome signs; `SORTED` sorts the children by mobility. Returns 0
/// once the counter halts (the caller checks it).
pub(super) fn alpha_beta<const N: usize, const SORTED: bool>(
    counter: &mut Counter,
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    if counter.visit() {
        return 0;
    }
    let moves = legal_moves::<N>(p, o);
    if moves == 0 {
        if legal_moves::<N>(o, p) == 0 {
            return final_sign::<N>(p, o);
        }
        return -alpha_beta::<N, SORTED>(counter, o, p, -beta, -alpha);
    }
    let mut list = [(0u64, 0u64); 64];
    let count = children::<N>(p, o, moves, &mut list);
    let list = &mut list[..count];
    if SORTED {
        sort_by_mobility::<N>(list);
    }
    let mut best = -2;
    for &(cp, co) in list.iter() {
        let v = -alpha_beta::<N, SORTED>(counter, cp, co, -beta, -alpha);
        if counter.halted() {
            return 0;
        }
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// The answer to `question` at `(p, o)` by unsorted alpha-beta with its null window (meaningless
/// once the counter halts).
pub(super) fn answer<const N: usize>(counter: &mut Counter, p: u64, o: u64, question: Question) -> bool {
    let (alpha, beta) = question.window();
    let v = alpha_beta::<N, false>(counter, p, o, alpha, beta);
    question.holds(v)
}
