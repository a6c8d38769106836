//! The rules on raw bitboards, specialised per board size at compile time.
//!
//! Every function takes the side to move's discs `p` and the opponent's `o` as `u64` in the
//! layout of [`crate::board::geometry`], and the board side `N` as a const parameter: each size gets its
//! own machine code with its own masks and the exact number of propagation steps, so 4x4 and 6x6
//! never pay for 8x8's longer runs. [`crate::board::position::Position`] is the checked, size-dynamic front door.
//!
//! - [`legal_moves`]: shift-and-mask propagation along the eight directions, the run lengthened
//!   by doubling (`pre = o & (o << s)`) once it is two long.
//! - [`flips`]: per direction, the ray from the square; toward the high bits the first
//!   non-opponent square is found with one addition (the carry runs through the opponent discs),
//!   toward the low bits with one leading-zero count.
//! - [`legal_moves_x4`]: four positions at once, one per vector lane.
//!
//! Each is the plain `u64` kernel, the reference the vector variants are tested against. The hot
//! code (search, perft, evaluation) calls them through an [`crate::board::isa::Isa`] token instead, which
//! picks the variant for the CPU at run time: with AVX2, [`legal_moves`] runs the four shifts in
//! the four lanes of one vector (`simd::legal_moves_avx2`, the Edax/Egaroucid layout); with
//! AVX-512VL and AVX-512CD, [`flips`] does the four rays toward the high bits in one vector and the
//! four toward the low bits in another, with a vector leading-zero count (`simd::flips_avx512`);
//! with AVX2 alone, the same two vectors, the low rays' first non-opponent square found by a
//! parallel prefix fill instead (`simd::flips_avx2`, Okuhara's `flip_avx_ppfill` in Edax).
//! Unit tests check every variant the CPU has against its twin on random positions of every size.
//! `docs/perft-notes.md` has the measured costs.

use crate::board::geometry::{self, full_mask, inner_columns};

/// The legal moves of the side with discs `p` against `o` on an `N x N` board.
///
/// The plain kernel ([`legal_moves_scalar`]); hot code calls [`crate::board::isa::Isa::legal_moves`],
/// which returns the same mask with the fastest variant the CPU has.
///
/// ```
/// use othello_explorer::board::rules::legal_moves;
/// // 4x4 start: black may play b1, a2, d3 and c4.
/// assert_eq!(legal_moves::<4>(0x0240, 0x0420), 0x4812);
/// assert_eq!(legal_moves::<8>(0x0000000810000000, 0x0000001008000000), 0x0000102004080000);
/// ```
#[inline(always)]
pub fn legal_moves<const N: usize>(p: u64, o: u64) -> u64 {
    legal_moves_scalar::<N>(p, o)
}

/// The discs that a move on bit `sq` flips, or 0 when it flips none (the move is then illegal,
/// if the square was empty). `sq` must be empty.
///
/// The plain kernel ([`flips_scalar`]); hot code calls [`crate::board::isa::Isa::flips`], which returns
/// the same mask with the fastest variant the CPU has.
///
/// ```
/// use othello_explorer::board::rules::flips;
/// // 4x4 start, black plays b1 (bit 14): flips b2 (bit 10).
/// assert_eq!(flips::<4>(0x0240, 0x0420, 14), 0x0400);
/// ```
#[inline(always)]
pub fn flips<const N: usize>(p: u64, o: u64, sq: u32) -> u64 {
    flips_scalar::<N>(p, o, sq)
}

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

/// [`legal_moves`] in plain `u64` arithmetic, one direction after the other: the reference the
/// vector variants are tested against, and the code of the `plain` level.
///
/// ```
/// use othello_explorer::board::rules::legal_moves_scalar;
/// assert_eq!(legal_moves_scalar::<4>(0x0240, 0x0420), 0x4812);
/// ```
#[inline(always)]
pub fn legal_moves_scalar<const N: usize>(p: u64, o: u64) -> u64 {
    let empty = !(p | o) & full_mask(N);
    let inner = o & inner_columns(N);
    let moves = fill::<N>(p, inner, 1)
        | fill::<N>(p, o, N as u32)
        | fill::<N>(p, inner, N as u32 - 1)
        | fill::<N>(p, inner, N as u32 + 1);
    moves & empty
}

/// [`flips`] in plain `u64` arithmetic: per direction, the ray from the square; toward the high
/// bits the first non-opponent square is found with one addition (the carry runs through the
/// opponent discs), toward the low bits with one leading-zero count.
///
/// ```
/// use othello_explorer::board::rules::flips_scalar;
/// assert_eq!(flips_scalar::<4>(0x0240, 0x0420, 14), 0x0400);
/// ```
#[inline(always)]
pub fn flips_scalar<const N: usize>(p: u64, o: u64, sq: u32) -> u64 {
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

/// [`legal_moves`] of four positions at once (lane `i` is `p[i]` against `o[i]`): the batch the
/// last ply of perft and mobility-based move ordering need. The plain kernel, as [`legal_moves`].
///
/// ```
/// use othello_explorer::board::rules::legal_moves_x4;
/// let (p, o) = (0x0000000810000000, 0x0000001008000000);
/// assert_eq!(legal_moves_x4::<8>([p, o, 0, p], [o, p, 0, 0]), [0x0000102004080000, 0x0000080420100000, 0, 0]);
/// ```
#[inline(always)]
pub fn legal_moves_x4<const N: usize>(p: [u64; 4], o: [u64; 4]) -> [u64; 4] {
    legal_moves_x4_scalar::<N>(p, o)
}

/// [`legal_moves_x4`] as four calls of [`legal_moves_scalar`]: its plain twin.
#[inline(always)]
pub(crate) fn legal_moves_x4_scalar<const N: usize>(p: [u64; 4], o: [u64; 4]) -> [u64; 4] {
    std::array::from_fn(|i| legal_moves_scalar::<N>(p[i], o[i]))
}

/// The vector kernels, always compiled. They are safe functions with `#[target_feature]`: calling
/// them is `unsafe` only because the caller must guarantee the CPU has the features, which an
/// [`crate::board::isa::Isa`] token proves. Their bodies use no pointers.
#[cfg(target_arch = "x86_64")]
pub(crate) mod simd {
    use crate::board::geometry::{self, full_mask, inner_columns};
    use std::arch::x86_64::*;

    /// The four lanes (low lane first), as a vector.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn lanes(a: u64, b: u64, c: u64, d: u64) -> __m256i {
        _mm256_set_epi64x(d as i64, c as i64, b as i64, a as i64)
    }

    /// The OR of the four lanes.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn or_lanes(v: __m256i) -> u64 {
        let h = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        _mm_cvtsi128_si64(_mm_or_si128(h, _mm_unpackhi_epi64(h, h))) as u64
    }

    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn legal_moves_avx2<const N: usize>(p: u64, o: u64) -> u64 {
        let n = N as u64;
        let shift = lanes(1, n, n - 1, n + 1);
        let edges = lanes(inner_columns(N), full_mask(N), inner_columns(N), inner_columns(N));
        let pp = _mm256_set1_epi64x(p as i64);
        let m = _mm256_and_si256(_mm256_set1_epi64x(o as i64), edges);
        let mut l = _mm256_and_si256(m, _mm256_sllv_epi64(pp, shift));
        let mut r = _mm256_and_si256(m, _mm256_srlv_epi64(pp, shift));
        l = _mm256_or_si256(l, _mm256_and_si256(m, _mm256_sllv_epi64(l, shift)));
        r = _mm256_or_si256(r, _mm256_and_si256(m, _mm256_srlv_epi64(r, shift)));
        if N >= 6 {
            let pre_l = _mm256_and_si256(m, _mm256_sllv_epi64(m, shift));
            let pre_r = _mm256_srlv_epi64(pre_l, shift);
            let shift2 = _mm256_add_epi64(shift, shift);
            l = _mm256_or_si256(l, _mm256_and_si256(pre_l, _mm256_sllv_epi64(l, shift2)));
            r = _mm256_or_si256(r, _mm256_and_si256(pre_r, _mm256_srlv_epi64(r, shift2)));
            if N >= 8 {
                l = _mm256_or_si256(l, _mm256_and_si256(pre_l, _mm256_sllv_epi64(l, shift2)));
                r = _mm256_or_si256(r, _mm256_and_si256(pre_r, _mm256_srlv_epi64(r, shift2)));
            }
        }
        let moves = _mm256_or_si256(_mm256_sllv_epi64(l, shift), _mm256_srlv_epi64(r, shift));
        or_lanes(moves) & !(p | o) & full_mask(N)
    }

    #[target_feature(enable = "avx2,avx512f,avx512vl,avx512cd")]
    #[inline]
    pub(crate) fn flips_avx512<const N: usize>(p: u64, o: u64, sq: u32) -> u64 {
        let r = &geometry::rays_of(N)[sq as usize];
        let up = lanes(r[0], r[1], r[2], r[3]);
        let down = lanes(r[4], r[5], r[6], r[7]);
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_set1_epi64x(o as i64);
        // Toward the high bits: `(o | !ray) + (2 << sq)` carries through the opponent discs (and
        // the off-ray bits) and stops at the first other square on the ray; it is the outflank
        // if it is ours. The run is then the opponent squares of the ray below it.
        let filled = _mm256_ternarylogic_epi64::<0xf3>(oo, up, up); // o | !up
        let sum = _mm256_add_epi64(filled, _mm256_set1_epi64x((2u64 << sq) as i64));
        let out_up = _mm256_ternarylogic_epi64::<0x80>(sum, pp, up); // sum & p & up
        let some = _mm256_test_epi64_mask(out_up, out_up);
        let below = _mm256_add_epi64(out_up, _mm256_set1_epi64x(-1));
        let flip_up = _mm256_maskz_ternarylogic_epi64::<0x80>(some, below, oo, up);
        // Toward the low bits: the first non-opponent square is the highest bit of
        // `ray & !o`; a vector leading-zero count finds it (64, and a zero shift result, if none).
        let lz = _mm256_lzcnt_epi64(_mm256_andnot_si256(oo, down));
        let first = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), lz);
        let out_down = _mm256_and_si256(first, pp);
        // Every ray square from the outflank up: the run and the outflank, which `& o` drops.
        let from = _mm256_sub_epi64(_mm256_setzero_si256(), out_down);
        let flip_down = _mm256_ternarylogic_epi64::<0x80>(from, oo, down);
        or_lanes(_mm256_or_si256(flip_up, flip_down))
    }

    /// [`super::flips`] with AVX2 alone: the four rays toward the high bits as in
    /// [`flips_avx512`] (a 64-bit add carries through each lane); toward the low bits, where
    /// AVX2 has no vector leading-zero count, the first non-opponent square is found by a
    /// parallel prefix fill (Okuhara's `flip_avx_ppfill` in Edax): the non-opponent squares of
    /// each ray are smeared down their own direction (shifts of 1, 2 and 4 steps), so the squares
    /// of the ray above the smear are the opponent's run from `sq`, and the top of the smear is
    /// the first other square, the outflank if it is ours.
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn flips_avx2<const N: usize>(p: u64, o: u64, sq: u32) -> u64 {
        let r = &geometry::rays_of(N)[sq as usize];
        // SAFETY: `r` is eight u64 in a row; each load reads four of them.
        let (up, down) =
            unsafe { (_mm256_loadu_si256(r.as_ptr().cast()), _mm256_loadu_si256(r.as_ptr().add(4).cast())) };
        let pp = _mm256_set1_epi64x(p as i64);
        let oo = _mm256_set1_epi64x(o as i64);
        let zero = _mm256_setzero_si256();
        // Toward the high bits: `(o | !ray) + (2 << sq)` stops at the first other square of the
        // ray; kept if ours, the run is then the ray's squares below it.
        let filled = _mm256_or_si256(oo, _mm256_andnot_si256(up, _mm256_set1_epi64x(-1)));
        let sum = _mm256_add_epi64(filled, _mm256_set1_epi64x((2u64 << sq) as i64));
        let out_up = _mm256_and_si256(_mm256_and_si256(sum, pp), up);
        let none_up = _mm256_cmpeq_epi64(out_up, zero);
        let below = _mm256_add_epi64(out_up, _mm256_set1_epi64x(-1));
        let flip_up = _mm256_andnot_si256(none_up, _mm256_and_si256(below, up));
        // Toward the low bits (east, south-west, south, south-east): one step is a right shift
        // of 1, N - 1, N and N + 1 bits.
        let n = N as u64;
        let step = lanes(1, n - 1, n, n + 1);
        let others = _mm256_andnot_si256(oo, down);
        let mut smear = _mm256_or_si256(others, _mm256_srlv_epi64(others, step));
        smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, _mm256_slli_epi64::<1>(step)));
        if N > 4 {
            // Rays of 4 to 7 squares need the third doubling.
            smear = _mm256_or_si256(smear, _mm256_srlv_epi64(smear, _mm256_slli_epi64::<2>(step)));
        }
        // The run: the ray's squares above the smear. The outflank: the smear's top square.
        let run = _mm256_andnot_si256(smear, down);
        let top = _mm256_andnot_si256(_mm256_srlv_epi64(smear, step), smear);
        let outflank = _mm256_and_si256(top, _mm256_and_si256(pp, down));
        let none_down = _mm256_cmpeq_epi64(outflank, zero);
        let flip_down = _mm256_andnot_si256(none_down, run);
        or_lanes(_mm256_or_si256(flip_up, flip_down))
    }

    /// Every lane shifted left (`s > 0`) or right (`s < 0`) by `|s|`.
    #[target_feature(enable = "avx2")]
    #[inline]
    fn shift(v: __m256i, s: i32) -> __m256i {
        if s > 0 {
            _mm256_sllv_epi64(v, _mm256_set1_epi64x(s as i64))
        } else {
            _mm256_srlv_epi64(v, _mm256_set1_epi64x(-s as i64))
        }
    }

    /// [`super::fill`] lane by lane, one way only (`s` signed as in [`shift`]).
    #[target_feature(enable = "avx2")]
    #[inline]
    fn fill_x4<const N: usize>(p: __m256i, m: __m256i, s: i32) -> __m256i {
        let mut run = _mm256_and_si256(m, shift(p, s));
        run = _mm256_or_si256(run, _mm256_and_si256(m, shift(run, s)));
        if N >= 6 {
            let pre = _mm256_and_si256(m, shift(m, s));
            run = _mm256_or_si256(run, _mm256_and_si256(pre, shift(run, 2 * s)));
            if N >= 8 {
                run = _mm256_or_si256(run, _mm256_and_si256(pre, shift(run, 2 * s)));
            }
        }
        shift(run, s)
    }

    /// The legal moves of four positions, one per lane, all eight directions in turn (shifts by
    /// constants, so each one is a single instruction).
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn legal_moves_x4<const N: usize>(p: __m256i, o: __m256i) -> __m256i {
        let n = N as i32;
        let inner = _mm256_and_si256(o, _mm256_set1_epi64x(inner_columns(N) as i64));
        let moves = _mm256_or_si256(
            _mm256_or_si256(fill_x4::<N>(p, inner, 1), fill_x4::<N>(p, inner, -1)),
            _mm256_or_si256(fill_x4::<N>(p, o, n), fill_x4::<N>(p, o, -n)),
        );
        let moves = _mm256_or_si256(
            moves,
            _mm256_or_si256(
                _mm256_or_si256(fill_x4::<N>(p, inner, n - 1), fill_x4::<N>(p, inner, 1 - n)),
                _mm256_or_si256(fill_x4::<N>(p, inner, n + 1), fill_x4::<N>(p, inner, -1 - n)),
            ),
        );
        let empty = _mm256_andnot_si256(_mm256_or_si256(p, o), _mm256_set1_epi64x(full_mask(N) as i64));
        _mm256_and_si256(moves, empty)
    }

    /// The array form of [`legal_moves_x4`].
    #[target_feature(enable = "avx2")]
    #[inline]
    pub(crate) fn legal_moves_x4_array<const N: usize>(p: [u64; 4], o: [u64; 4]) -> [u64; 4] {
        let v = legal_moves_x4::<N>(lanes(p[0], p[1], p[2], p[3]), lanes(o[0], o[1], o[2], o[3]));
        [
            _mm256_extract_epi64::<0>(v) as u64,
            _mm256_extract_epi64::<1>(v) as u64,
            _mm256_extract_epi64::<2>(v) as u64,
            _mm256_extract_epi64::<3>(v) as u64,
        ]
    }
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
            $crate::board::size::Size::Four => {
                const $n: usize = 4;
                $body
            }
            $crate::board::size::Size::Six => {
                const $n: usize = 6;
                $body
            }
            $crate::board::size::Size::Eight => {
                const $n: usize = 8;
                $body
            }
        }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::isa::Isa;

    use crate::testing::random_positions;

    fn variants_agree<const N: usize>() {
        let positions = random_positions::<N>(20_000, 0x2545_f491_4f6c_dd1d);
        for cpu in crate::board::isa::Cpu::available() {
            crate::with_cpu!(cpu, isa => isa.enter(#[inline(always)] || variants_agree_on::<N, _>(isa, &positions)));
        }
    }

    /// Every kernel of `isa` against its plain twin.
    #[inline(always)]
    fn variants_agree_on<const N: usize, I: Isa>(isa: I, positions: &[(u64, u64)]) {
        let level = I::LEVEL;
        for chunk in positions.chunks_exact(4) {
            let p: [u64; 4] = std::array::from_fn(|i| chunk[i].0);
            let o: [u64; 4] = std::array::from_fn(|i| chunk[i].1);
            assert_eq!(isa.legal_moves_x4::<N>(p, o), legal_moves_x4_scalar::<N>(p, o), "{level} {p:x?} {o:x?}");
        }
        for &(p, o) in positions {
            let expected = legal_moves_scalar::<N>(p, o);
            assert_eq!(isa.legal_moves::<N>(p, o), expected, "{level} legal {N}x{N} p={p:#x} o={o:#x}");
            let mut empty = !(p | o) & full_mask(N);
            while empty != 0 {
                let sq = empty.trailing_zeros();
                empty &= empty - 1;
                let expected = flips_scalar::<N>(p, o, sq);
                assert_eq!(isa.flips::<N>(p, o, sq), expected, "{level} flips {N}x{N} p={p:#x} o={o:#x} sq={sq}");
                assert_eq!(expected != 0, legal_moves_scalar::<N>(p, o) >> sq & 1 == 1);
            }
        }
    }

    #[test]
    fn variants_agree_4x4() {
        variants_agree::<4>();
    }

    #[test]
    fn variants_agree_6x6() {
        variants_agree::<6>();
    }

    #[test]
    fn variants_agree_8x8() {
        variants_agree::<8>();
    }
}
