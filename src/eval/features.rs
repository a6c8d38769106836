//! The scalar features of a position, each a small count from the side to move's point of view,
//! computed with a handful of whole-board operations.
//!
//! | # | feature | how |
//! |---|---|---|
//! | 0 | bias | 1 |
//! | 1, 2 | mobility of `p`, of `o` | `popcount(legal_moves)` |
//! | 3, 4 | potential mobility of `p`, of `o` | empty squares next to an opponent disc (the opponent's frontier, where moves may appear) |
//! | 5 | parity | 1 when the number of empty squares is odd (the side to move would play last) |
//! | 6 | discs | `p`'s discs minus `o`'s |
//!
//! Corners, X and C squares and edge stability are left to the pattern tables, which see each
//! corner region and edge whole (version 1 of the weights also counted them here, and stable
//! discs, which cost half of an evaluation's time).

#[cfg(test)]
use crate::board::geometry::bit;
use crate::board::geometry::{column_mask, full_mask};
use crate::board::rules::legal_moves;

/// The number of scalar features.
pub const SCALARS: usize = 7;

/// The squares next to a disc of `x` (the eight one-step shifts, nothing wrapping from one edge
/// column to the other).
#[inline(always)]
pub fn neighbours<const N: usize>(x: u64) -> u64 {
    let not_last = !column_mask(N, N - 1);
    let not_first = !column_mask(N, 0);
    let across = (x << 1 | x << (N + 1) | x >> (N - 1)) & not_last | (x >> 1 | x >> (N + 1) | x << (N - 1)) & not_first;
    (across | x << N | x >> N) & full_mask(N)
}

/// The scalar features, given both sides' legal moves (`pm` of `p`, `om` of `o`), which the
/// search has at hand.
#[inline(always)]
pub(crate) fn scalars_with_moves<const N: usize>(p: u64, o: u64, pm: u64, om: u64) -> [i32; SCALARS] {
    let empty = full_mask(N) & !(p | o);
    let count = |x: u64| x.count_ones() as i32;
    [
        1,
        count(pm),
        count(om),
        count(empty & neighbours::<N>(o)),
        count(empty & neighbours::<N>(p)),
        (empty.count_ones() & 1) as i32,
        count(p) - count(o),
    ]
}

/// The scalar features of a position (`p` to move).
///
/// ```
/// use othello_explorer::eval::features::scalars;
/// // The 4x4 start: 4 moves each, 10 empty squares next to each side, 12 empties (even).
/// assert_eq!(scalars::<4>(0x0240, 0x0420), [1, 4, 4, 10, 10, 0, 0]);
/// ```
pub fn scalars<const N: usize>(p: u64, o: u64) -> [i32; SCALARS] {
    scalars_with_moves::<N>(p, o, legal_moves::<N>(p, o), legal_moves::<N>(o, p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::Rng;

    #[test]
    fn neighbours_match_a_square_by_square_count() {
        let mut rng = Rng(0x5eed);
        for n in [4usize, 6, 8] {
            for _ in 0..300 {
                let x = rng.next() & rng.next() & full_mask(n);
                let got = match n {
                    4 => neighbours::<4>(x),
                    6 => neighbours::<6>(x),
                    _ => neighbours::<8>(x),
                };
                let mut want = 0;
                for c in 0..n as i32 {
                    for r in 0..n as i32 {
                        if x & 1 << bit(n, c as usize, r as usize) == 0 {
                            continue;
                        }
                        for dc in -1..=1 {
                            for dr in -1..=1 {
                                let (cc, rr) = (c + dc, r + dr);
                                if (dc, dr) != (0, 0) && (0..n as i32).contains(&cc) && (0..n as i32).contains(&rr) {
                                    want |= 1 << bit(n, cc as usize, rr as usize);
                                }
                            }
                        }
                    }
                }
                assert_eq!(got, want, "n={n} {x:#x}");
            }
        }
    }
}
