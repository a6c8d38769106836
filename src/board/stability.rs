//! Stable discs: discs that no sequence of moves can flip. Their count bounds the final score,
//! which lets the search cut a node whose bound cannot reach the window.
//!
//! A disc is stable when, along each of the four lines through it (horizontal, vertical, two
//! diagonals), it cannot be outflanked: the line is full, or one of its two neighbours on that
//! line is the board's edge or a stable disc of the same colour. Starting from none, the set
//! grows to its fixed point (corners first, then the edges and lines they anchor).

use crate::board::geometry::{DIRECTIONS, full_mask};
use crate::board::size::Size;
use crate::with_size;

/// The squares from which `steps` steps in direction `d` lead off the board.
const fn edge_toward(n: usize, d: usize, steps: i32) -> u64 {
    let dir = &DIRECTIONS[d];
    let mut m = 0;
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            let (c, r) = (col as i32 + steps * dir.dcol, row as i32 + steps * dir.drow);
            if c < 0 || r < 0 || c >= n as i32 || r >= n as i32 {
                m |= 1u64 << crate::board::geometry::bit(n, col, row);
            }
            col += 1;
        }
        row += 1;
    }
    m
}

/// [`edge_toward`] of every direction, for runs of `steps` squares.
const fn edges(n: usize, steps: i32) -> [u64; 8] {
    let mut e = [0; 8];
    let mut d = 0;
    while d < 8 {
        e[d] = edge_toward(n, d, steps);
        d += 1;
    }
    e
}

/// The squares `2^k` steps or fewer from the edge toward each direction, for `k` = 0, 1, 2: the
/// squares a run of `2^k` squares from them reaches past the edge.
const fn near_edges(n: usize) -> [[u64; 8]; 3] {
    [edges(n, 1), edges(n, 2), edges(n, 4)]
}

/// The edge masks of the `N x N` board, built at compile time.
struct Edges<const N: usize>;

impl<const N: usize> Edges<N> {
    /// The squares whose neighbour in each direction is off the board.
    const TOWARD: [u64; 8] = Self::NEAR[0];
    const NEAR: [[u64; 8]; 3] = near_edges(N);
    /// Doublings of a run until it spans the board: `2^ROUNDS >= N`.
    const ROUNDS: usize = if N <= 4 { 2 } else { 3 };
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

/// Moves each square's membership `2^k` steps against direction `d`: bit `x` of the result is
/// bit `x + 2^k·d` of `bits`. Where that square is off the board ([`Edges::NEAR`]) the bit is
/// meaningless, and [`full_lines`] masks it out.
#[inline(always)]
fn from_far<const N: usize>(bits: u64, d: usize, k: usize) -> u64 {
    let dir = &DIRECTIONS[d];
    let shift = dir.shift(N) << k;
    if dir.is_left() { bits >> shift } else { bits << shift }
}

/// Squares every line of which through them, along direction pair (`d`, `d+4`), is full.
///
/// By doubling, as Edax's `get_full_lines`: after round `k`, a square is kept when the run of
/// `2^(k+1)` squares from it toward the direction is filled as far as the board goes, so
/// [`Edges::ROUNDS`] rounds reach every edge ([`full_lines_plain`] walks one step at a time).
#[inline(always)]
fn full_lines<const N: usize>(filled: u64, d: usize) -> u64 {
    let near = &Edges::<N>::NEAR;
    let (mut a, mut b) = (filled, filled);
    for (k, near) in near.iter().enumerate().take(Edges::<N>::ROUNDS) {
        a &= near[d] | from_far::<N>(a, d, k);
        b &= near[d + 4] | from_far::<N>(b, d + 4, k);
    }
    a & b
}

/// [`full_lines`] one step at a time: the plain twin the tests compare it with.
#[cfg(test)]
fn full_lines_plain<const N: usize>(filled: u64, d: usize) -> u64 {
    let e = Edges::<N>::TOWARD;
    let (mut a, mut b) = (filled & e[d], filled & e[d + 4]);
    for _ in 1..N {
        a |= filled & from_neighbour::<N>(a, d);
        b |= filled & from_neighbour::<N>(b, d + 4);
    }
    a & b
}

/// The squares whose neighbour in direction `d` is off the board (for the teaching trace).
pub(crate) fn edge_toward_of(size: Size, d: usize) -> u64 {
    with_size!(size, N => Edges::<N>::TOWARD[d])
}

/// [`full_lines`] on a board of `size` (for the teaching trace): the squares whose line along
/// directions `d` and `d + 4` is full.
pub(crate) fn full_lines_of(size: Size, filled: u64, d: usize) -> u64 {
    with_size!(size, N => full_lines::<N>(filled, d))
}

/// [`from_neighbour`] on a board of `size` (for the teaching trace): the squares whose neighbour
/// in direction `d` is in `bits`.
pub(crate) fn from_neighbour_of(size: Size, bits: u64, d: usize) -> u64 {
    with_size!(size, N => from_neighbour::<N>(bits, d))
}

/// The stable discs of `p` (against `o`) on an `N x N` board.
///
/// ```
/// use othello_explorer::board::stability::stable_discs;
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
    // Every stable disc rests on these: with none, there is none.
    if stable == 0 {
        return 0;
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::bit;
    use crate::board::rules::{flips_scalar, legal_moves_scalar};
    use crate::testing::{Rng, random_positions};
    use crate::{board::position::Position, board::size::Size};

    /// The definition square by square: a disc of `p` is stable when along each of the four
    /// lines through it the line is full, or a neighbour on it is off the board or a stable disc
    /// of `p`; grown from none to the fixed point.
    fn stable_plain(n: usize, p: u64, o: u64) -> u64 {
        let filled = p | o;
        let at =
            |c: i32, r: i32| (c >= 0 && r >= 0 && c < n as i32 && r < n as i32).then(|| bit(n, c as usize, r as usize));
        let full_line = |c: i32, r: i32, dc: i32, dr: i32| {
            [(dc, dr), (-dc, -dr)].iter().all(|&(dc, dr)| {
                let (mut c, mut r) = (c + dc, r + dr);
                while let Some(b) = at(c, r) {
                    if filled & (1 << b) == 0 {
                        return false;
                    }
                    (c, r) = (c + dc, r + dr);
                }
                true
            })
        };
        let mut stable = 0u64;
        loop {
            let mut next = stable;
            for r in 0..n as i32 {
                for c in 0..n as i32 {
                    let b = at(c, r).unwrap();
                    if p & (1 << b) == 0 {
                        continue;
                    }
                    let held = [(1, 0), (0, 1), (1, 1), (1, -1)].iter().all(|&(dc, dr)| {
                        full_line(c, r, dc, dr)
                            || [(dc, dr), (-dc, -dr)]
                                .iter()
                                .any(|&(dc, dr)| at(c + dc, r + dr).is_none_or(|nb| stable & (1 << nb) != 0))
                    });
                    if held {
                        next |= 1 << b;
                    }
                }
            }
            if next == stable {
                return stable;
            }
            stable = next;
        }
    }

    fn check<const N: usize>() {
        for (p, o) in random_positions::<N>(20_000, 0x5eed) {
            for d in 0..4 {
                assert_eq!(
                    full_lines::<N>(p | o, d),
                    full_lines_plain::<N>(p | o, d),
                    "{N}x{N} {p:#x} {o:#x} lines {d}"
                );
            }
            assert_eq!(stable_discs::<N>(p, o), stable_plain(N, p, o), "{N}x{N} {p:#x} {o:#x}");
        }
    }

    #[test]
    fn stable_discs_match_the_square_by_square_definition() {
        check::<4>();
        check::<6>();
        check::<8>();
    }

    /// Plays every legal continuation of `(p, o)` (`p` to move; passes included) and fails if
    /// a disc of `keep_p` stops being `p`'s or a disc of `keep_o` stops being `o`'s.
    fn never_flips<const N: usize>(p: u64, o: u64, keep_p: u64, keep_o: u64, start: &str) {
        assert_eq!(keep_p & !p, 0, "a stable disc changed colour, from {start}");
        assert_eq!(keep_o & !o, 0, "a stable disc changed colour, from {start}");
        let moves = legal_moves_scalar::<N>(p, o);
        if moves == 0 {
            if legal_moves_scalar::<N>(o, p) != 0 {
                never_flips::<N>(o, p, keep_o, keep_p, start);
            }
            return;
        }
        let mut rest = moves;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let f = flips_scalar::<N>(p, o, sq);
            never_flips::<N>(o ^ f, p | f | 1 << sq, keep_o, keep_p, start);
        }
    }

    /// What the cutoff relies on, checked against the rules themselves: from positions of
    /// random 4x4 and 6x6 games with few empties, no legal continuation flips a disc that
    /// `stable_discs` calls stable, of either side.
    #[test]
    fn no_game_flips_a_stable_disc() {
        fn run<const N: usize>(max_empties: u32, games: usize) {
            let mut rng = Rng(0xd15c ^ N as u64);
            let mut found = 0;
            for _ in 0..games {
                let start = Position::start(Size::from_n(N).unwrap());
                let (mut p, mut o) = (start.player().bits(), start.opponent().bits());
                loop {
                    let empties = (full_mask(N) & !(p | o)).count_ones();
                    if empties <= max_empties {
                        break;
                    }
                    let moves = legal_moves_scalar::<N>(p, o);
                    if moves == 0 {
                        if legal_moves_scalar::<N>(o, p) == 0 {
                            break;
                        }
                        (p, o) = (o, p);
                        continue;
                    }
                    let pick = rng.next() % moves.count_ones() as u64;
                    let mut rest = moves;
                    for _ in 0..pick {
                        rest &= rest - 1;
                    }
                    let sq = rest.trailing_zeros();
                    let f = flips_scalar::<N>(p, o, sq);
                    (p, o) = (o ^ f, p | f | 1 << sq);
                }
                let (mine, theirs) = (stable_discs::<N>(p, o), stable_discs::<N>(o, p));
                found += (mine | theirs).count_ones();
                never_flips::<N>(p, o, mine, theirs, &format!("{N}x{N} {p:#x} {o:#x}"));
            }
            assert!(found > 0, "{N}x{N}: no stable disc in any position: the check checked nothing");
        }
        run::<4>(10, 300);
        run::<6>(9, 150);
    }
}
