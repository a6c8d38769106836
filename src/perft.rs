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
    if depth == 2 {
        return leaves_two_plies::<N>(p, o, moves);
    }
    let mut total = 0;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        let f = flips::<N>(p, o, sq);
        total += perft_n::<N>(o ^ f, p ^ f ^ (1u64 << sq), depth - 1);
    }
    total
}

/// The leaves two plies below a position with legal moves `moves` (not 0): for every child, its
/// number of legal moves, or 1 if it has none (a pass or the end of the game are one leaf each).
#[inline(always)]
fn leaves_two_plies<const N: usize>(p: u64, o: u64, moves: u64) -> u64 {
    #[cfg(target_feature = "avx2")]
    {
        // SAFETY: compiled only when the build enables AVX2, the one feature the kernel needs.
        unsafe { simd::leaves_two_plies::<N>(p, o, moves) }
    }
    #[cfg(not(target_feature = "avx2"))]
    leaves_two_plies_scalar::<N>(p, o, moves)
}

/// [`leaves_two_plies`] one child at a time: the plain twin of the batched version.
#[cfg_attr(all(target_feature = "avx2", not(test)), allow(dead_code))]
#[inline(always)]
fn leaves_two_plies_scalar<const N: usize>(p: u64, o: u64, moves: u64) -> u64 {
    let mut total = 0;
    let mut rest = moves;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        let f = flips::<N>(p, o, sq);
        total += leaves_one_ply::<N>(o ^ f, p ^ f ^ (1u64 << sq));
    }
    total
}

#[cfg_attr(all(target_feature = "avx2", not(test)), allow(dead_code))]
#[inline(always)]
fn leaves_one_ply<const N: usize>(p: u64, o: u64) -> u64 {
    let moves = legal_moves::<N>(p, o);
    if moves == 0 { 1 } else { moves.count_ones() as u64 }
}

/// The batched last two plies: children are made four at a time, and their legal moves found
/// and counted four at a time in the lanes of one AVX2 vector.
#[cfg(target_feature = "avx2")]
mod simd {
    use crate::rules::flips;
    use crate::rules::simd::{lanes, legal_moves_x4};
    use std::arch::x86_64::*;

    /// The population count of each 64-bit lane (nibble lookup with `vpshufb`, summed by
    /// `vpsadbw`).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn popcount_x4(v: __m256i) -> __m256i {
        let lut = _mm256_setr_epi8(
            0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4, 0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
        );
        let nibble = _mm256_set1_epi8(0x0f);
        let lo = _mm256_and_si256(v, nibble);
        let hi = _mm256_and_si256(_mm256_srli_epi16::<4>(v), nibble);
        let bytes = _mm256_add_epi8(_mm256_shuffle_epi8(lut, lo), _mm256_shuffle_epi8(lut, hi));
        _mm256_sad_epu8(bytes, _mm256_setzero_si256())
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub(super) fn leaves_two_plies<const N: usize>(p: u64, o: u64, moves: u64) -> u64 {
        let mut acc = _mm256_setzero_si256();
        let mut rest = moves;
        let mut lanes_used = 0;
        while rest != 0 {
            let mut cp = [0u64; 4];
            let mut co = [0u64; 4];
            for i in 0..4 {
                if rest == 0 {
                    break;
                }
                let sq = rest.trailing_zeros();
                rest &= rest - 1;
                let f = flips::<N>(p, o, sq);
                cp[i] = o ^ f;
                co[i] = p ^ f ^ (1u64 << sq);
            }
            lanes_used += 4;
            let m = legal_moves_x4::<N>(lanes(cp[0], cp[1], cp[2], cp[3]), lanes(co[0], co[1], co[2], co[3]));
            // A child without moves is one leaf: subtracting the all-ones lane adds 1.
            let none = _mm256_cmpeq_epi64(m, _mm256_setzero_si256());
            acc = _mm256_add_epi64(acc, _mm256_sub_epi64(popcount_x4(m), none));
        }
        let h = _mm_add_epi64(_mm256_castsi256_si128(acc), _mm256_extracti128_si256::<1>(acc));
        let sum = _mm_cvtsi128_si64(_mm_add_epi64(h, _mm_unpackhi_epi64(h, h))) as u64;
        // The unused lanes held empty boards, each counted as one leaf.
        sum - (lanes_used - moves.count_ones() as u64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::full_mask;

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
    }

    /// The batched last two plies agree with the one-child-at-a-time twin on random positions.
    fn two_plies_agree<const N: usize>() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ N as u64);
        for _ in 0..20_000 {
            let occupied = (rng.next() | rng.next() & rng.next()) & full_mask(N);
            let mine = rng.next();
            let (p, o) = (occupied & mine, occupied & !mine);
            let moves = legal_moves::<N>(p, o);
            if moves != 0 {
                assert_eq!(
                    leaves_two_plies::<N>(p, o, moves),
                    leaves_two_plies_scalar::<N>(p, o, moves),
                    "{N}x{N} p={p:#x} o={o:#x}"
                );
            }
        }
    }

    #[test]
    fn two_plies_agree_every_size() {
        two_plies_agree::<4>();
        two_plies_agree::<6>();
        two_plies_agree::<8>();
    }
}
