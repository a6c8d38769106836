//! Perft: the number of leaves of the game tree to a fixed depth, the standard check of a move
//! generator.
//!
//! Convention (Aart Bik's table): a pass is a ply, and a game that ends before the depth counts as
//! one leaf. The last ply is counted from the legal-move mask without playing it.

use crate::board::isa::{Cpu, Isa};
use crate::{board::position::Position, with_size};

/// Leaves at `depth` plies from `position`.
///
/// ```
/// use othello_explorer::{Position, Size, board::perft::perft};
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

/// Perft on raw bitboards for one board size, with the CPU's best level ([`Cpu::detect`]).
pub fn perft_n<const N: usize>(p: u64, o: u64, depth: u32) -> u64 {
    perft_on::<N>(Cpu::detect(), p, o, depth)
}

/// Perft on raw bitboards with the kernels of `cpu`.
///
/// With AVX2 the children one ply above the leaves are not counted where they are made: they are
/// queued, from any parent, and their legal moves found eight at a time in two vectors; the plain
/// level counts them one by one.
pub fn perft_on<const N: usize>(cpu: Cpu, p: u64, o: u64, depth: u32) -> u64 {
    match cpu {
        Cpu::Plain(isa) => perft_unbatched::<N, _>(isa, p, o, depth),
        #[cfg(target_arch = "x86_64")]
        Cpu::Avx2(isa) => simd::perft::<N, _>(isa, p, o, depth),
        #[cfg(target_arch = "x86_64")]
        Cpu::Avx2Pext(isa) => simd::perft::<N, _>(isa, p, o, depth),
        #[cfg(target_arch = "x86_64")]
        Cpu::Avx512(isa) => simd::perft::<N, _>(isa, p, o, depth),
    }
}

/// Perft one node at a time, with no vector batch: the plain level, and the twin of the batch.
pub(crate) fn perft_unbatched<const N: usize, I: Isa>(isa: I, p: u64, o: u64, depth: u32) -> u64 {
    isa.enter(
        #[inline(always)]
        || perft_unbatched_body::<N, I>(isa, p, o, depth),
    )
}

#[inline(always)]
fn perft_unbatched_body<const N: usize, I: Isa>(isa: I, p: u64, o: u64, depth: u32) -> u64 {
    let moves = isa.legal_moves::<N>(p, o);
    if moves == 0 {
        if depth == 1 || isa.legal_moves::<N>(o, p) == 0 {
            return 1;
        }
        return perft_unbatched::<N, I>(isa, o, p, depth - 1);
    }
    if depth == 1 {
        return moves.count_ones() as u64;
    }
    let mut total = 0;
    let mut rest = moves;
    if depth == 2 {
        // Every child's number of legal moves, or 1 if it has none (a pass or the end).
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let f = isa.flips::<N>(p, o, sq);
            let replies = isa.legal_moves::<N>(o ^ f, p ^ f ^ (1u64 << sq));
            total += if replies == 0 { 1 } else { replies.count_ones() as u64 };
        }
        return total;
    }
    while rest != 0 {
        let sq = rest.trailing_zeros();
        rest &= rest - 1;
        let f = isa.flips::<N>(p, o, sq);
        total += perft_unbatched::<N, I>(isa, o ^ f, p ^ f ^ (1u64 << sq), depth - 1);
    }
    total
}

/// The batched last ply: positions one ply above the leaves are queued, and their legal moves
/// found and counted eight at a time in the lanes of two AVX2 vectors. Only the levels with AVX2
/// call it.
#[cfg(target_arch = "x86_64")]
mod simd {
    use crate::board::isa::Isa;
    use crate::board::rules::simd::{lanes, legal_moves_x4};
    use std::arch::x86_64::*;

    /// [`super::perft_on`] with the batch. `isa` must be a level with AVX2.
    pub(super) fn perft<const N: usize, I: Isa>(isa: I, p: u64, o: u64, depth: u32) -> u64 {
        debug_assert!(I::LEVEL >= crate::board::isa::Level::Avx2);
        isa.enter(
            #[inline(always)]
            || {
                // SAFETY (every `unsafe` below): the token is of a level with AVX2.
                let mut batch = Batch { p: [0; 8], o: [0; 8], len: 0, leaves: unsafe { _mm256_setzero_si256() } };
                perft_batched::<N, I>(isa, p, o, depth, &mut batch) + unsafe { batch.finish::<N>() }
            },
        )
    }

    /// [`super::perft_on`] with the last ply's parents queued in `batch`: returns the leaves
    /// counted directly; the batch holds the rest.
    fn perft_batched<const N: usize, I: Isa>(isa: I, p: u64, o: u64, depth: u32, batch: &mut Batch) -> u64 {
        isa.enter(
            #[inline(always)]
            || perft_batched_body::<N, I>(isa, p, o, depth, batch),
        )
    }

    #[inline(always)]
    fn perft_batched_body<const N: usize, I: Isa>(isa: I, p: u64, o: u64, depth: u32, batch: &mut Batch) -> u64 {
        let moves = isa.legal_moves::<N>(p, o);
        if moves == 0 {
            // A pass, or the end of the game: the end is one leaf, a pass a ply.
            if depth == 1 || isa.legal_moves::<N>(o, p) == 0 {
                return 1;
            }
            return perft_batched::<N, I>(isa, o, p, depth - 1, batch);
        }
        if depth == 1 {
            return moves.count_ones() as u64;
        }
        let mut rest = moves;
        if depth == 2 {
            // A loop of its own, with no call in it, so the queue length can live in a register.
            while rest != 0 {
                let sq = rest.trailing_zeros();
                rest &= rest - 1;
                let f = isa.flips::<N>(p, o, sq);
                // SAFETY: the token is of a level with AVX2.
                unsafe { batch.push::<N>(o ^ f, p ^ f ^ (1u64 << sq)) };
            }
            return 0;
        }
        let mut total = 0;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let f = isa.flips::<N>(p, o, sq);
            total += perft_batched::<N, I>(isa, o ^ f, p ^ f ^ (1u64 << sq), depth - 1, batch);
        }
        total
    }

    /// Queued positions (side to move, opponent) whose legal moves are the leaves, and the
    /// running count of the positions already processed.
    struct Batch {
        p: [u64; 8],
        o: [u64; 8],
        len: usize,
        leaves: __m256i,
    }

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

    /// The leaves below four positions: each one's number of legal moves, or 1 if it has none (a
    /// pass or the end of the game is one leaf).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn leaves_x4<const N: usize>(p: __m256i, o: __m256i) -> __m256i {
        let m = legal_moves_x4::<N>(p, o);
        // Subtracting the all-ones lane of "no move" adds 1.
        _mm256_sub_epi64(popcount_x4(m), _mm256_cmpeq_epi64(m, _mm256_setzero_si256()))
    }

    impl Batch {
        /// Queues a position; every eighth one runs the kernel on the whole queue.
        #[target_feature(enable = "avx2")]
        #[inline]
        fn push<const N: usize>(&mut self, p: u64, o: u64) {
            let i = self.len & 7;
            self.p[i] = p;
            self.o[i] = o;
            self.len = i + 1;
            if self.len == 8 {
                self.len = 0;
                let [p, o] = [&self.p, &self.o];
                let low = leaves_x4::<N>(lanes(p[0], p[1], p[2], p[3]), lanes(o[0], o[1], o[2], o[3]));
                let high = leaves_x4::<N>(lanes(p[4], p[5], p[6], p[7]), lanes(o[4], o[5], o[6], o[7]));
                self.leaves = _mm256_add_epi64(self.leaves, _mm256_add_epi64(low, high));
            }
        }

        /// The leaves below every position queued so far.
        #[target_feature(enable = "avx2")]
        fn finish<const N: usize>(self) -> u64 {
            let mut total = 0;
            for i in 0..self.len {
                let m = legal_moves_x4::<N>(lanes(self.p[i], 0, 0, 0), lanes(self.o[i], 0, 0, 0));
                total += (_mm256_extract_epi64::<0>(m) as u64).count_ones().max(1) as u64;
            }
            let v = self.leaves;
            let h = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            total + _mm_cvtsi128_si64(_mm_add_epi64(h, _mm_unpackhi_epi64(h, h))) as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::full_mask;

    use crate::testing::Rng;

    /// Every level (the batched perft with AVX2) agrees with the plain one on random positions (passes and game ends
    /// included), at every depth up to 4.
    fn batched_agrees<const N: usize>() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ N as u64);
        for _ in 0..3_000 {
            let occupied = (rng.next() | rng.next() & rng.next()) & full_mask(N);
            let mine = rng.next();
            let (p, o) = (occupied & mine, occupied & !mine);
            for depth in 1..=4 {
                let plain = perft_unbatched::<N, _>(crate::board::isa::Plain, p, o, depth);
                for cpu in Cpu::available() {
                    assert_eq!(perft_on::<N>(cpu, p, o, depth), plain, "{cpu:?} {N}x{N} p={p:#x} o={o:#x}");
                }
            }
        }
    }

    #[test]
    fn batched_agrees_every_size() {
        batched_agrees::<4>();
        batched_agrees::<6>();
        batched_agrees::<8>();
    }
}
