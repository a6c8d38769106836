//! The network's two kernels, each with its plain twin: the first layer (the sum of one embedding
//! row per placement, saturating, then the clipped ReLU) and the layers after it (the second
//! layer's dot products, its clipped ReLU, the output). The AVX2 versions give the same integers
//! as the plain ones: the sums are exact in `i32`, and the first layer's saturating adds are
//! made in the same order.

use super::{HIDDEN, HIDDEN2, INPUTS2, Q1, Stack};

/// One embedding row: [`HIDDEN`] `i8` in 1/128, half a 64-byte cache line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct TableRow(pub [i8; HIDDEN]);

/// The first layer's bias: [`HIDDEN`] `i16` in 1/128.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Bias(pub [i16; HIDDEN]);

/// The first layer, plain: `bias` plus the rows `table[offsets[k] + indexes[k]]`, added with
/// saturation in placement order, clamped to `0..=Q1` into `out[..HIDDEN]`.
#[inline(always)]
pub fn first_layer_plain(table: &[TableRow], bias: &Bias, offsets: &[u32], indexes: &[u16], out: &mut [i16; INPUTS2]) {
    let mut acc = bias.0;
    for (&at, &index) in offsets.iter().zip(indexes) {
        let row = &table[at as usize + index as usize].0;
        for (a, &w) in acc.iter_mut().zip(row) {
            *a = a.saturating_add(w as i16);
        }
    }
    for (o, &a) in out.iter_mut().zip(&acc) {
        *o = a.clamp(0, Q1 as i16);
    }
}

/// The layers after the first, plain: the value in 1/64 of a disc.
#[inline(always)]
pub fn upper_layers_plain(stack: &Stack, inputs: &[i16; INPUTS2]) -> i32 {
    let mut out = stack.b3;
    for j in 0..HIDDEN2 {
        let row = &stack.w2[j * INPUTS2..(j + 1) * INPUTS2];
        let z = stack.b2[j] + row.iter().zip(inputs).map(|(&w, &x)| w as i32 * x as i32).sum::<i32>();
        out += stack.w3[j] as i32 * (z >> 6).clamp(0, Q1);
    }
    out >> 7
}

/// [`first_layer_plain`] with AVX2.
///
/// # Safety
/// The CPU must have AVX2; `offsets[k] + indexes[k]` must be inside `table` (as the layout makes
/// them).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) unsafe fn first_layer_avx2(
    table: &[TableRow],
    bias: &Bias,
    offsets: &[u32],
    indexes: &[u16],
    out: &mut [i16; INPUTS2],
) {
    use std::arch::x86_64::*;
    // SAFETY: AVX2 by the caller; every row is 32 bytes and 32-byte aligned, the bias too; `out`
    // has at least 32 lanes.
    unsafe {
        let b = bias.0.as_ptr() as *const __m256i;
        let (mut lo, mut hi) = (_mm256_load_si256(b), _mm256_load_si256(b.add(1)));
        for (&at, &index) in offsets.iter().zip(indexes) {
            let row = table.get_unchecked(at as usize + index as usize).0.as_ptr() as *const __m128i;
            lo = _mm256_adds_epi16(lo, _mm256_cvtepi8_epi16(_mm_load_si128(row)));
            hi = _mm256_adds_epi16(hi, _mm256_cvtepi8_epi16(_mm_load_si128(row.add(1))));
        }
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(Q1 as i16));
        lo = _mm256_min_epi16(_mm256_max_epi16(lo, zero), top);
        hi = _mm256_min_epi16(_mm256_max_epi16(hi, zero), top);
        let o = out.as_mut_ptr() as *mut __m256i;
        _mm256_storeu_si256(o, lo);
        _mm256_storeu_si256(o.add(1), hi);
    }
}

/// The inputs the second layer reads: the first layer and the scalars, rounded up to a pair.
pub(crate) const USED_PAIRS: usize = (HIDDEN + super::SCALARS).div_ceil(2);

/// `w2` (row `j` the weights of output `j`) laid out for [`upper_layers_avx2`]: for each pair of
/// inputs `p` and each block `b` of 8 outputs, 16 `i16`: output `8b + k`'s weights of inputs `2p`
/// and `2p + 1` at lanes `2k` and `2k + 1`, what `madd` multiplies with the pair broadcast.
pub fn interleave(w2: &[i16]) -> Vec<i16> {
    let mut out = Vec::with_capacity(USED_PAIRS * HIDDEN2 * 2);
    for p in 0..USED_PAIRS {
        for j in 0..HIDDEN2 {
            out.push(w2[j * INPUTS2 + 2 * p]);
            out.push(w2[j * INPUTS2 + 2 * p + 1]);
        }
    }
    out
}

/// [`upper_layers_plain`] with AVX2: each pair of inputs broadcast and multiplied with the
/// interleaved weights of 8 outputs at a time ([`interleave`]), so the sums build up lane by lane
/// with no horizontal additions until the output.
///
/// # Safety
/// The CPU must have AVX2; `stack` must have the sizes of the module's constants.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub unsafe fn upper_layers_avx2(stack: &Stack, inputs: &[i16; INPUTS2]) -> i32 {
    use std::arch::x86_64::*;
    const _: () = assert!(HIDDEN2 == 32 && 2 * USED_PAIRS <= INPUTS2);
    // SAFETY: AVX2 by the caller; `w2_pairs` holds USED_PAIRS * 64 values, `b2` 32, `w3` 32.
    unsafe {
        let w = stack.w2_pairs.as_ptr() as *const __m256i;
        let b = stack.b2.as_ptr() as *const __m256i;
        let (mut z0, mut z1, mut z2, mut z3) = (
            _mm256_loadu_si256(b),
            _mm256_loadu_si256(b.add(1)),
            _mm256_loadu_si256(b.add(2)),
            _mm256_loadu_si256(b.add(3)),
        );
        let pairs = inputs.as_ptr() as *const i32;
        for p in 0..USED_PAIRS {
            let x = _mm256_set1_epi32(pairs.add(p).read_unaligned());
            let row = w.add(4 * p);
            z0 = _mm256_add_epi32(z0, _mm256_madd_epi16(x, _mm256_loadu_si256(row)));
            z1 = _mm256_add_epi32(z1, _mm256_madd_epi16(x, _mm256_loadu_si256(row.add(1))));
            z2 = _mm256_add_epi32(z2, _mm256_madd_epi16(x, _mm256_loadu_si256(row.add(2))));
            z3 = _mm256_add_epi32(z3, _mm256_madd_epi16(x, _mm256_loadu_si256(row.add(3))));
        }
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi32(Q1));
        let act = |z: __m256i| _mm256_min_epi32(_mm256_max_epi32(_mm256_srai_epi32(z, 6), zero), top);
        let w3 = stack.w3.as_ptr() as *const __m128i;
        let out = |z: __m256i, k: usize| _mm256_mullo_epi32(act(z), _mm256_cvtepi16_epi32(_mm_loadu_si128(w3.add(k))));
        let total =
            _mm256_add_epi32(_mm256_add_epi32(out(z0, 0), out(z1, 1)), _mm256_add_epi32(out(z2, 2), out(z3, 3)));
        let half = _mm_add_epi32(_mm256_castsi256_si128(total), _mm256_extracti128_si256(total, 1));
        let quad = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0b01_00_11_10));
        let one = _mm_add_epi32(quad, _mm_shuffle_epi32(quad, 0b10_11_00_01));
        (stack.b3 + _mm_cvtsi128_si32(one)) >> 7
    }
}
