//! Perft: the number of leaves of the game tree to a fixed depth, the standard check of a move
//! generator.
//!
//! Convention (Aart Bik's table): a pass is a ply, and a game that ends before the depth counts as
//! one leaf. The last ply is counted from the legal-move mask without playing it.

use crate::rules::{flips, legal_moves};
use crate::{Position, with_size};

/// Leaves at `depth` plies from `position`.
///
/// ```
/// use othello_explorer::{Position, Size, perft::perft};
/// let start = Position::start(Size::Eight);
/// assert_eq!((1..=5).map(|d| perft(&start, d)).collect::<Vec<_>>(), [4, 12, 56, 244, 1396]);
/// ```
pub fn perft(position: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let (p, o) = position.raw();
    with_size!(position.size(), N => perft_n::<N>(p, o, depth))
}

/// Perft on raw bitboards for one board size.
pub fn perft_n<const N: usize>(p: u64, o: u64, depth: u32) -> u64 {
    let moves = legal_moves::<N>(p, o);
    if moves == 0 {
        // A pass, or the end of the game: the end is one leaf, a pass a ply.
        if depth == 1 || legal_moves::<N>(o, p) == 0 {
            return 1;
        }
        return perft_n::<N>(o, p, depth - 1);
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    let mut total = 0;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        let f = flips::<N>(p, o, sq);
        let (np, no) = (o ^ f, p ^ f ^ (1u64 << sq));
        total += if depth == 2 { leaves_one_ply::<N>(np, no) } else { perft_n::<N>(np, no, depth - 1) };
    }
    total
}

#[inline(always)]
fn leaves_one_ply<const N: usize>(p: u64, o: u64) -> u64 {
    let moves = legal_moves::<N>(p, o);
    if moves == 0 { 1 } else { moves.count_ones() as u64 }
}
