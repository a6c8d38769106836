//! The plain searches: negamax and fail-soft alpha-beta on raw bitboards, with no table, no
//! iterative deepening and no pruning but the window's. The search lab shows them beside the
//! solver ([`crate::studies::lab`]), its outcome half proves wins with them
//! ([`crate::studies::lab::outcome`]), and the trainer's bootstrapping search is one
//! (`fit-eval`). What differs between those users is what a node is worth and when to stop,
//! which a [`Leaves`] says; the recursion is written once, here.
//!
//! # Conventions
//!
//! Positions are `(p, o)`: the side to move's discs and the opponent's, on an `N x N` board. A
//! pass is a node of its own (the same discs, the other side to move) and counts as one. Moves
//! are generated in reading order, from `a1` (the most significant used bit) down; sorted, the
//! children are tried by their own number of legal moves (the opponent's replies), fewest first,
//! ties in reading order (a stable sort).
//!
//! ```
//! use othello_explorer::board::rules::final_score;
//! use othello_explorer::solver::plain::{Leaves, alpha_beta, negamax};
//! use othello_explorer::{Position, Size};
//!
//! struct Exact;
//! impl Leaves for Exact {
//!     fn finished(&mut self, p: u64, o: u64) -> i32 {
//!         final_score::<4>(p, o)
//!     }
//! }
//! let (p, o) = Position::start(Size::Four).raw();
//! assert_eq!(negamax::<4, _>(&mut Exact, p, o), -10);
//! assert_eq!(alpha_beta::<4, true, _>(&mut Exact, p, o, -17, 17), -10);
//! ```

use crate::board::rules::{flips, legal_moves};

/// What a plain search asks of its user at each node.
pub trait Leaves {
    /// Counts a node on entering it; `true` when the search must end. Every node then returns 0
    /// and the caller discards the value. The default counts nothing and never stops.
    #[inline]
    fn visit(&mut self) -> bool {
        false
    }

    /// Whether the search has been told to end (checked after each child).
    #[inline]
    fn halted(&self) -> bool {
        false
    }

    /// The value of `(p, o)` when it is a leaf before its moves are tried (a depth horizon);
    /// `None` searches on. The default searches to the end of the game.
    #[inline]
    fn horizon(&mut self, _p: u64, _o: u64) -> Option<i32> {
        None
    }

    /// The value of a finished game, from the side to move.
    fn finished(&mut self, p: u64, o: u64) -> i32;
}

/// The children of `(p, o)` for the moves in `moves`, in reading order: `(child's player,
/// child's opponent)`, written into `out`; returns how many.
#[inline]
pub fn children<const N: usize>(p: u64, o: u64, mut moves: u64, out: &mut [(u64, u64); 64]) -> usize {
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

/// Sorts `children` by their own mobility, fewest moves first, keeping their order among equals
/// (an insertion sort: stable, and the lists are short).
#[inline]
pub fn sort_by_mobility<const N: usize>(children: &mut [(u64, u64)]) {
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

/// What a node is on entering it: a value (the search stops, a horizon, or the game is over), a
/// pass, or the moves to try.
enum Enter {
    Value(i32),
    Pass,
    Moves(u64),
}

/// The steps every plain node starts with: count it, ask for a horizon, find its moves.
#[inline]
fn enter<const N: usize, L: Leaves>(leaves: &mut L, p: u64, o: u64) -> Enter {
    if leaves.visit() {
        return Enter::Value(0);
    }
    if let Some(v) = leaves.horizon(p, o) {
        return Enter::Value(v);
    }
    let moves = legal_moves::<N>(p, o);
    if moves != 0 {
        Enter::Moves(moves)
    } else if legal_moves::<N>(o, p) != 0 {
        Enter::Pass
    } else {
        Enter::Value(leaves.finished(p, o))
    }
}

/// Plain negamax: the best of minus every child's value, every move searched to the leaves.
pub fn negamax<const N: usize, L: Leaves>(leaves: &mut L, p: u64, o: u64) -> i32 {
    let moves = match enter::<N, L>(leaves, p, o) {
        Enter::Value(v) => return v,
        Enter::Pass => return -negamax::<N, L>(leaves, o, p),
        Enter::Moves(moves) => moves,
    };
    let mut list = [(0u64, 0u64); 64];
    let count = children::<N>(p, o, moves, &mut list);
    let mut best = i32::MIN;
    for &(cp, co) in &list[..count] {
        let v = -negamax::<N, L>(leaves, cp, co);
        if leaves.halted() {
            return 0;
        }
        best = best.max(v);
    }
    best
}

/// Fail-soft alpha-beta in the window `(alpha, beta)`; `SORTED` tries the children fewest
/// replies first ("fastest-first"), otherwise in reading order.
pub fn alpha_beta<const N: usize, const SORTED: bool, L: Leaves>(
    leaves: &mut L,
    p: u64,
    o: u64,
    mut alpha: i32,
    beta: i32,
) -> i32 {
    let moves = match enter::<N, L>(leaves, p, o) {
        Enter::Value(v) => return v,
        Enter::Pass => return -alpha_beta::<N, SORTED, L>(leaves, o, p, -beta, -alpha),
        Enter::Moves(moves) => moves,
    };
    let mut list = [(0u64, 0u64); 64];
    let count = children::<N>(p, o, moves, &mut list);
    let list = &mut list[..count];
    if SORTED {
        sort_by_mobility::<N>(list);
    }
    let mut best = i32::MIN;
    for &(cp, co) in list.iter() {
        let v = -alpha_beta::<N, SORTED, L>(leaves, cp, co, -beta, -alpha);
        if leaves.halted() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::rules::final_score;

    struct Exact(u64);
    impl Leaves for Exact {
        fn visit(&mut self) -> bool {
            self.0 += 1;
            false
        }
        fn finished(&mut self, p: u64, o: u64) -> i32 {
            final_score::<4>(p, o)
        }
    }

    #[test]
    fn every_window_around_the_value_gives_it_and_sorting_saves_nodes() {
        let (p, o) = (0x0240, 0x0420);
        let mut plain = Exact(0);
        let v = negamax::<4, _>(&mut plain, p, o);
        let (mut unsorted, mut sorted) = (Exact(0), Exact(0));
        assert_eq!(alpha_beta::<4, false, _>(&mut unsorted, p, o, -17, 17), v);
        assert_eq!(alpha_beta::<4, true, _>(&mut sorted, p, o, -17, 17), v);
        assert!(sorted.0 < unsorted.0 && unsorted.0 < plain.0);
        // Null windows at the value: one fails low (a bound at most v), one high (at least v).
        assert!(alpha_beta::<4, true, _>(&mut Exact(0), p, o, v, v + 1) <= v);
        assert!(alpha_beta::<4, true, _>(&mut Exact(0), p, o, v - 1, v) >= v);
    }
}
