//! Per-size square masks the exact search's move ordering and endgame use, built at compile
//! time: corners, the squares next to them, quadrants, each square's neighbours.
//!
//! Bits follow the project's convention (a1 the most significant used bit, see
//! [`crate::board::geometry`]); every mask is within the `N x N` board.

use crate::board::geometry::{bit, full_mask};

/// Per-size masks the move ordering uses, built at compile time.
pub struct Masks<const N: usize>;

impl<const N: usize> Masks<N> {
    pub(super) const CORNERS: u64 =
        1 << bit(N, 0, 0) | 1 << bit(N, N - 1, 0) | 1 << bit(N, 0, N - 1) | 1 << bit(N, N - 1, N - 1);
    /// The squares touching a corner (the C and X squares): played last in the shallow search.
    pub(super) const NEXT_TO_CORNER: u64 = neighbours(N, Self::CORNERS);
    /// The four quadrants (every size is even, so they are equal).
    pub(crate) const QUADRANTS: [u64; 4] = quadrants(N);
    /// The squares beside a corner along an edge (the C squares).
    pub(crate) const EDGE_NEIGHBOURS_OF_CORNERS_MASK: u64 = c_squares(N);
    /// For each square (by bit), its neighbours: a move there flips nothing unless one of them
    /// holds an opponent disc.
    pub(crate) const NEIGHBOURS: [u64; 64] = neighbour_table(N);
    /// For each square (by bit), the quadrant it lies in: filling it flips that quadrant's
    /// parity, so the shallow search keeps [`odd_quadrants`] move by move with one XOR.
    pub(super) const QUADRANT_OF: [u64; 64] = quadrant_table(N);
}

const fn neighbours(n: usize, m: u64) -> u64 {
    let mut out = 0;
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            if m >> bit(n, col, row) & 1 == 1 {
                let mut dr = -1i32;
                while dr <= 1 {
                    let mut dc = -1i32;
                    while dc <= 1 {
                        let (c, r) = (col as i32 + dc, row as i32 + dr);
                        if c >= 0 && r >= 0 && c < n as i32 && r < n as i32 {
                            out |= 1 << bit(n, c as usize, r as usize);
                        }
                        dc += 1;
                    }
                    dr += 1;
                }
            }
            col += 1;
        }
        row += 1;
    }
    out & !m
}

const fn c_squares(n: usize) -> u64 {
    let last = n - 1;
    1 << bit(n, 1, 0)
        | 1 << bit(n, 0, 1)
        | 1 << bit(n, last - 1, 0)
        | 1 << bit(n, last, 1)
        | 1 << bit(n, 0, last - 1)
        | 1 << bit(n, 1, last)
        | 1 << bit(n, last, last - 1)
        | 1 << bit(n, last - 1, last)
}

/// The C squares whose corner holds a disc of `m`.
#[inline(always)]
pub(super) fn edge_adjacent_to_corners<const N: usize>(m: u64) -> u64 {
    let c = m & Masks::<N>::CORNERS;
    let n = N as u32;
    // Each corner's edge neighbours, one column and one row inward; out-of-board bits are masked
    // by the C-square mask.
    ((c << 1) | (c >> 1) | (c << n) | (c >> n)) & Masks::<N>::EDGE_NEIGHBOURS_OF_CORNERS_MASK
}

const fn neighbour_table(n: usize) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut b = 0;
    while b < n * n {
        t[b] = neighbours(n, 1 << b);
        b += 1;
    }
    t
}

const fn quadrants(n: usize) -> [u64; 4] {
    let mut q = [0u64; 4];
    let half = n / 2;
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            let k = (row / half) * 2 + col / half;
            q[k] |= 1 << bit(n, col, row);
            col += 1;
        }
        row += 1;
    }
    q
}

const fn quadrant_table(n: usize) -> [u64; 64] {
    let q = quadrants(n);
    let mut t = [0u64; 64];
    let mut k = 0;
    while k < 4 {
        let mut rest = q[k];
        while rest != 0 {
            t[rest.trailing_zeros() as usize] = q[k];
            rest &= rest - 1;
        }
        k += 1;
    }
    t
}

/// A set of moves counted for the move ordering: each move once, a corner twice.
#[inline(always)]
pub(super) fn weighted_mobility<const N: usize>(moves: u64) -> i32 {
    (moves.count_ones() + (moves & Masks::<N>::CORNERS).count_ones()) as i32
}

/// The squares of the quadrants holding an odd number of empties.
#[inline(always)]
pub(super) fn odd_quadrants<const N: usize>(empty: u64) -> u64 {
    let mut m = 0;
    for q in Masks::<N>::QUADRANTS {
        if (empty & q).count_ones() & 1 == 1 {
            m |= q;
        }
    }
    m
}

/// Squares next to any square of `m` (eight directions), within the board.
#[inline(always)]
pub(super) fn adjacent<const N: usize>(m: u64) -> u64 {
    let not_first_col = full_mask(N) & !crate::board::geometry::column_mask(N, 0);
    let not_last_col = full_mask(N) & !crate::board::geometry::column_mask(N, N - 1);
    let n = N as u32;
    // Shifting left moves toward column a: what lands in the last column wrapped.
    let l = m << 1 | m << (n + 1) | m >> (n - 1);
    let r = m >> 1 | m >> (n + 1) | m << (n - 1);
    ((l & not_last_col) | (r & not_first_col) | m << n | m >> n) & full_mask(N)
}

/// The squares of `moves` in the order a node without a sort tries them, those that most often
/// refute first: the corners, then the squares touching no corner, then the C and X squares;
/// within each group from the lowest bit up.
#[inline(always)]
pub(super) fn corners_first<const N: usize>(moves: u64) -> CornersFirst {
    CornersFirst { groups: corner_groups::<N>(moves), group: 0 }
}

/// `moves` in [`corners_first`]'s three groups: the corners, the squares touching no corner, the
/// C and X squares.
#[inline(always)]
pub(super) fn corner_groups<const N: usize>(moves: u64) -> [u64; 3] {
    let (corners, near) = (Masks::<N>::CORNERS, Masks::<N>::NEXT_TO_CORNER);
    [moves & corners, moves & !corners & !near, moves & near]
}

/// The iterator of [`corners_first`].
pub(super) struct CornersFirst {
    groups: [u64; 3],
    group: usize,
}

impl Iterator for CornersFirst {
    type Item = u32;

    #[inline(always)]
    fn next(&mut self) -> Option<u32> {
        while self.group < self.groups.len() {
            let rest = &mut self.groups[self.group];
            if *rest != 0 {
                let sq = rest.trailing_zeros();
                *rest &= *rest - 1;
                return Some(sq);
            }
            self.group += 1;
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every move once, and by square names: the corners, then the squares touching none, then
    /// the C and X squares.
    #[test]
    fn corners_first_yields_every_move_once_corners_first_and_their_neighbours_last() {
        let names = |n: usize, squares: &[u32]| -> Vec<String> {
            squares
                .iter()
                .map(|&b| {
                    let i = n * n - 1 - b as usize;
                    format!("{}{}", (b'a' + (i % n) as u8) as char, i / n + 1)
                })
                .collect()
        };
        let all = full_mask(8);
        let order: Vec<u32> = corners_first::<8>(all).collect();
        assert_eq!(order.len(), 64);
        assert_eq!(order.iter().fold(0u64, |m, &b| m | 1 << b), all);
        let mut first = names(8, &order[..4]);
        first.sort();
        assert_eq!(first, ["a1", "a8", "h1", "h8"]);
        let mut last = names(8, &order[52..]);
        last.sort();
        assert_eq!(last, ["a2", "a7", "b1", "b2", "b7", "b8", "g1", "g2", "g7", "g8", "h2", "h7"]);
        // A 6x6 subset: b2 (an X square) after c3, after f6 (a corner).
        let bit = |name: &str| {
            let (c, r) = (name.as_bytes()[0] - b'a', name.as_bytes()[1] - b'1');
            36 - 1 - (r as u32 * 6 + c as u32)
        };
        let moves = [bit("b2"), bit("c3"), bit("f6")].iter().fold(0u64, |m, &b| m | 1 << b);
        assert_eq!(names(6, &corners_first::<6>(moves).collect::<Vec<_>>()), ["f6", "c3", "b2"]);
    }
}
