//! Stable discs: discs that no sequence of moves can flip. Their count bounds the final score,
//! which lets the search cut a node whose bound cannot reach the window.
//!
//! A disc is stable when, along each of the four lines through it (horizontal, vertical, two
//! diagonals), it cannot be outflanked: the line is full, or one of its two neighbours on that
//! line is the board's edge or a stable disc of the same colour. Starting from none, the set
//! grows to its fixed point (corners first, then the edges and lines they anchor).

use crate::geometry::{DIRECTIONS, full_mask};

/// The squares whose neighbour in direction `d` is off the board.
const fn edge_toward(n: usize, d: usize) -> u64 {
    let dir = &DIRECTIONS[d];
    let mut m = 0;
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            let (c, r) = (col as i32 + dir.dcol, row as i32 + dir.drow);
            if c < 0 || r < 0 || c >= n as i32 || r >= n as i32 {
                m |= 1u64 << crate::geometry::bit(n, col, row);
            }
            col += 1;
        }
        row += 1;
    }
    m
}

const fn edges(n: usize) -> [u64; 8] {
    let mut e = [0; 8];
    let mut d = 0;
    while d < 8 {
        e[d] = edge_toward(n, d);
        d += 1;
    }
    e
}

/// The edge masks of the `N x N` board, built at compile time.
struct Edges<const N: usize>;

impl<const N: usize> Edges<N> {
    const TOWARD: [u64; 8] = edges(N);
}

/// Moves each square's membership to the square one step *against* direction `d`: bit `x` of the
/// result is bit `x + d` of `bits` ("my neighbour in direction d is in the set").
#[inline(always)]
fn from_neighbour<const N: usize>(bits: u64, d: usize) -> u64 {
    let dir = &DIRECTIONS[d];
    // The neighbour in a left-shift direction has the higher bit: bring it down.
    let moved = if dir.is_left() { bits >> dir.shift(N) } else { bits << dir.shift(N) };
    // A neighbour exists only where the square is not on the edge toward `d`.
    moved & !Edges::<N>::TOWARD[d] & full_mask(N)
}

/// Squares every line of which through them, along direction pair (`d`, `d+4`), is full.
#[inline(always)]
fn full_lines<const N: usize>(filled: u64, d: usize) -> u64 {
    let e = Edges::<N>::TOWARD;
    let (mut a, mut b) = (filled & e[d], filled & e[d + 4]);
    for _ in 1..N {
        a |= filled & from_neighbour::<N>(a, d);
        b |= filled & from_neighbour::<N>(b, d + 4);
    }
    a & b
}

/// The stable discs of `p` (against `o`) on an `N x N` board.
///
/// ```
/// use othello_explorer::solver::stable_discs;
/// // 4x4: a1 and b1 black (bits 15 and 14), the rest empty: both are stable.
/// assert_eq!(stable_discs::<4>(0xc000, 0), 0xc000);
/// ```
#[inline]
pub fn stable_discs<const N: usize>(p: u64, o: u64) -> u64 {
    let filled = p | o;
    let e = Edges::<N>::TOWARD;
    let mut ok = [0u64; 4];
    for (a, slot) in ok.iter_mut().enumerate() {
        *slot = full_lines::<N>(filled, a) | e[a] | e[a + 4];
    }
    let mut stable = p & ok[0] & ok[1] & ok[2] & ok[3];
    loop {
        let mut next = p;
        for (a, base) in ok.iter().enumerate() {
            next &= base | from_neighbour::<N>(stable, a) | from_neighbour::<N>(stable, a + 4);
        }
        next |= stable;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}
