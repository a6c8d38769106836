//! The scalar features of a position, each a small count from the side to move's point of view,
//! computed with a handful of whole-board operations.
//!
//! | # | feature | how |
//! |---|---|---|
//! | 0 | bias | 1 |
//! | 1, 2 | mobility of `p`, of `o` | `popcount(legal_moves)` |
//! | 3, 4 | potential mobility of `p`, of `o` | empty squares next to an opponent disc (the opponent's frontier, where moves may appear) |
//! | 5 | corners | `p`'s corners minus `o`'s |
//! | 6 | X squares | discs on the diagonal neighbour of an *empty* corner, `p`'s minus `o`'s |
//! | 7 | C squares | discs on the edge neighbours of an empty corner, `p`'s minus `o`'s |
//! | 8 | stable discs | [`crate::solver::stable_discs`], `p`'s minus `o`'s; above [`LATE`] empties, a side's only once it holds a corner |
//! | 9 | parity | 1 when the number of empty squares is odd (the side to move would play last) |
//! | 10 | discs | `p`'s discs minus `o`'s |

use crate::geometry::{bit, column_mask, full_mask};
use crate::rules::legal_moves;
use crate::solver::stable_discs;

/// From this many empty squares down, stable discs are always counted (see [`scalars`]).
pub const LATE: u32 = 16;

/// The number of scalar features.
pub const SCALARS: usize = 11;

/// The scalar features' names, in order.
pub const SCALAR_NAMES: [&str; SCALARS] = [
    "bias",
    "mobility",
    "opponent mobility",
    "potential mobility",
    "opponent potential mobility",
    "corners",
    "X squares",
    "C squares",
    "stable discs",
    "parity",
    "discs",
];

/// Corner, X and C masks of the `N x N` board.
struct Corners<const N: usize>;

impl<const N: usize> Corners<N> {
    /// `(corner, X square, both C squares)` for each corner.
    const ALL: [(u64, u64, u64); 4] = {
        let l = N - 1;
        [
            (sq(N, 0, 0), sq(N, 1, 1), sq(N, 1, 0) | sq(N, 0, 1)),
            (sq(N, l, 0), sq(N, l - 1, 1), sq(N, l - 1, 0) | sq(N, l, 1)),
            (sq(N, 0, l), sq(N, 1, l - 1), sq(N, 1, l) | sq(N, 0, l - 1)),
            (sq(N, l, l), sq(N, l - 1, l - 1), sq(N, l - 1, l) | sq(N, l, l - 1)),
        ]
    };
    const CORNERS: u64 = Self::ALL[0].0 | Self::ALL[1].0 | Self::ALL[2].0 | Self::ALL[3].0;
}

/// The mask of one square.
const fn sq(n: usize, c: usize, r: usize) -> u64 {
    1u64 << bit(n, c, r)
}

/// The squares next to any square of `x` (in the eight directions), on the board.
#[inline(always)]
pub fn neighbours<const N: usize>(x: u64) -> u64 {
    let not_last = !column_mask(N, N - 1);
    let not_first = !column_mask(N, 0);
    let across = (x << 1 | x << (N + 1) | x >> (N - 1)) & not_last | (x >> 1 | x >> (N + 1) | x << (N - 1)) & not_first;
    (across | x << N | x >> N) & full_mask(N)
}

/// The scalar features, given the two sides' legal moves (which the caller has already).
#[inline(always)]
pub fn scalars_with_moves<const N: usize>(p: u64, o: u64, pm: u64, om: u64) -> [i32; SCALARS] {
    let empty = full_mask(N) & !(p | o);
    let count = |x: u64| x.count_ones() as i32;
    let (mut x_diff, mut c_diff) = (0, 0);
    for (corner, x, c) in Corners::<N>::ALL {
        if empty & corner != 0 {
            x_diff += count(p & x) - count(o & x);
            c_diff += count(p & c) - count(o & c);
        }
    }
    let corners = Corners::<N>::CORNERS;
    // Without a corner of its own a side's discs can be stable only on lines that are all full:
    // rare in the midgame (and seen by the pattern tables there), common near the end. So in
    // the midgame the search for stable discs, the costliest feature, waits for the side's first
    // corner.
    let late = empty.count_ones() <= LATE;
    let stable_of = |a: u64, b: u64| if late || a & corners != 0 { count(stable_discs::<N>(a, b)) } else { 0 };
    let stable = stable_of(p, o) - stable_of(o, p);
    [
        1,
        count(pm),
        count(om),
        count(empty & neighbours::<N>(o)),
        count(empty & neighbours::<N>(p)),
        count(p & corners) - count(o & corners),
        x_diff,
        c_diff,
        stable,
        (empty.count_ones() & 1) as i32,
        count(p) - count(o),
    ]
}

/// The scalar features of `p` (to move) against `o`.
///
/// ```
/// use othello_explorer::eval::features::scalars;
/// // The 4x4 start: 4 moves each, 10 empty squares next to each side, 12 empties (even).
/// assert_eq!(scalars::<4>(0x0240, 0x0420), [1, 4, 4, 10, 10, 0, 0, 0, 0, 0, 0]);
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

    #[test]
    fn x_and_c_squares_count_only_beside_empty_corners() {
        // 8x8: p on b2 (X of a1) and b1 (C of a1), o on a1's opposite corner's X g7.
        let f = scalars::<8>(sq(8, 1, 1) | sq(8, 1, 0), sq(8, 6, 6));
        assert_eq!((f[5], f[6], f[7]), (0, 0, 1));
        // With a1 taken, its X and C squares no longer count.
        let f = scalars::<8>(sq(8, 1, 1) | sq(8, 1, 0) | sq(8, 0, 0), sq(8, 6, 6));
        assert_eq!((f[5], f[6], f[7]), (1, -1, 0));
    }
}
