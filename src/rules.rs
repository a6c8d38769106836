//! The rules on raw bitboards, specialised per board size at compile time.
//!
//! Every function takes the side to move's discs `p` and the opponent's `o` as `u64` in the
//! layout of [`crate::geometry`], and the board side `N` as a const parameter: each size gets its
//! own machine code with its own masks and the exact number of propagation steps, so 4x4 and 6x6
//! never pay for 8x8's longer runs. [`crate::Position`] is the checked, size-dynamic front door.
//!
//! - [`legal_moves`]: shift-and-mask propagation along the eight directions, the run lengthened
//!   by doubling (`pre = o & (o << s)`) once it is two long.
//! - [`flips`]: per direction, the ray from the square; toward the high bits the first
//!   non-opponent square is found with one addition (the carry runs through the opponent discs),
//!   toward the low bits with one leading-zero count.

use crate::geometry::{self, full_mask, inner_columns};

/// Propagates runs of `m` (masked opponent discs) from `p` one way and the other along shift
/// `s`, and returns the squares just past each run: the candidates for moves.
#[inline(always)]
fn fill<const N: usize>(p: u64, m: u64, s: u32) -> u64 {
    let mut l = m & (p << s);
    let mut r = m & (p >> s);
    l |= m & (l << s);
    r |= m & (r >> s);
    if N >= 6 {
        // From here on the run grows by two per step: `pre` holds the squares whose neighbour
        // back along the direction is an opponent disc too.
        let pre_l = m & (m << s);
        let pre_r = m & (m >> s);
        l |= pre_l & (l << (2 * s));
        r |= pre_r & (r >> (2 * s));
        if N >= 8 {
            l |= pre_l & (l << (2 * s));
            r |= pre_r & (r >> (2 * s));
        }
    }
    (l << s) | (r >> s)
}

/// The legal moves of the side with discs `p` against `o` on an `N x N` board.
///
/// ```
/// use othello_explorer::rules::legal_moves;
/// // 4x4 start: black may play b1, a2, d3 and c4.
/// assert_eq!(legal_moves::<4>(0x0240, 0x0420), 0x4812);
/// assert_eq!(legal_moves::<8>(0x0000000810000000, 0x0000001008000000), 0x0000102004080000);
/// ```
#[inline(always)]
pub fn legal_moves<const N: usize>(p: u64, o: u64) -> u64 {
    let empty = !(p | o) & full_mask(N);
    let inner = o & inner_columns(N);
    let moves = fill::<N>(p, inner, 1)
        | fill::<N>(p, o, N as u32)
        | fill::<N>(p, inner, N as u32 - 1)
        | fill::<N>(p, inner, N as u32 + 1);
    moves & empty
}

/// The discs that a move on bit `sq` flips, or 0 when it flips none (the move is then illegal,
/// if the square was empty). `sq` must be empty.
///
/// ```
/// use othello_explorer::rules::flips;
/// // 4x4 start, black plays b1 (bit 14): flips b2 (bit 10).
/// assert_eq!(flips::<4>(0x0240, 0x0420, 14), 0x0400);
/// ```
#[inline(always)]
pub fn flips<const N: usize>(p: u64, o: u64, sq: u32) -> u64 {
    let rays = &geometry::rays_of(N)[sq as usize];
    let mut f = 0;
    // Toward the high bits (west, north-east, north, north-west): fill the bits off the ray with
    // ones, so that adding the bit above `sq` carries through them and through the opponent
    // discs and stops at the first other square on the ray.
    let above = 2u64 << sq;
    for &ray in &rays[..4] {
        let outflank = ((o | !ray).wrapping_add(above)) & p & ray;
        f |= outflank.wrapping_sub((outflank != 0) as u64) & ray;
    }
    // Toward the low bits: the first non-opponent square is the highest one on the ray. The `| 1`
    // keeps the count defined when there is none (bit 0 is then dropped by `& ray` or by `& p`).
    for &ray in &rays[4..] {
        let first = (1u64 << 63) >> ((ray & !o) | 1).leading_zeros();
        let outflank = first & p & ray;
        f |= (outflank << 1).wrapping_neg() & ray;
    }
    f
}

/// Whether neither side can move.
#[inline(always)]
pub fn is_game_over<const N: usize>(p: u64, o: u64) -> bool {
    legal_moves::<N>(p, o) == 0 && legal_moves::<N>(o, p) == 0
}

/// The final score from `p`'s side with the empty squares given to the winner (the official
/// rule); a draw leaves them unshared.
#[inline(always)]
pub fn final_score<const N: usize>(p: u64, o: u64) -> i32 {
    let mine = p.count_ones() as i32;
    let theirs = o.count_ones() as i32;
    let empties = (N * N) as i32 - mine - theirs;
    let diff = mine - theirs;
    if diff > 0 {
        diff + empties
    } else if diff < 0 {
        diff - empties
    } else {
        0
    }
}

/// Calls `f` with the const size parameter matching `n` (4, 6 or 8): the one place where a
/// run-time size becomes compile-time specialised code.
#[macro_export]
macro_rules! with_size {
    ($size:expr, $n:ident => $body:expr) => {
        match $size {
            $crate::Size::Four => {
                const $n: usize = 4;
                $body
            }
            $crate::Size::Six => {
                const $n: usize = 6;
                $body
            }
            $crate::Size::Eight => {
                const $n: usize = 8;
                $body
            }
        }
    };
}
