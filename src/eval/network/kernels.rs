//! The network's two kernels, each with its plain twin: the first layer (the sum of one embedding
//! row per placement, saturating, then the clipped ReLU) and the layers after it (the second
//! layer's dot products, its clipped ReLU, the output). The AVX2 versions give the same integers
//! as the plain ones: the sums are exact in `i32`, and the first layer's saturating adds are
//! made in the same order.

use super::{HIDDEN, HIDDEN2, INPUTS2, Q1, Stack};

/// One embedding row: [`HIDDEN`] `i16`, one 64-byte cache line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(64))]
pub struct TableRow(pub [i16; HIDDEN]);

/// The first layer, plain: `bias` plus the rows `table[offsets[k] + indexes[k]]`, added with
/// saturation in placement order, clamped to `0..=Q1` into `out[..HIDDEN]`.
#[inline(always)]
pub fn first_layer_plain(
    table: &[TableRow],
    bias: &TableRow,
    offsets: &[u32],
    indexes: &[u16],
    out: &mut [i16; INPUTS2],
) {
    let mut acc = bias.0;
    for (&at, &index) in offsets.iter().zip(indexes) {
        let row = &table[at as usize + index as usize].0;
        for (a, &w) in acc.iter_mut().zip(row) {
            *a = a.saturating_add(w);
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
#[inline(always)]
pub unsafe fn first_layer_avx2(
    table: &[TableRow],
    bias: &TableRow,
    offsets: &[u32],
    indexes: &[u16],
    out: &mut [i16; INPUTS2],
) {
    use std::arch::x86_64::*;
    // SAFETY: AVX2 by the caller; every row is 64 bytes and 64-byte aligned; `out` has at least
    // 32 lanes.
    unsafe {
        let b = bias.0.as_ptr() as *const __m256i;
        let (mut lo, mut hi) = (_mm256_load_si256(b), _mm256_load_si256(b.add(1)));
        for (&at, &index) in offsets.iter().zip(indexes) {
            let row = table.get_unchecked(at as usize + index as usize).0.as_ptr() as *const __m256i;
            lo = _mm256_adds_epi16(lo, _mm256_load_si256(row));
            hi = _mm256_adds_epi16(hi, _mm256_load_si256(row.add(1)));
        }
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(Q1 as i16));
        lo = _mm256_min_epi16(_mm256_max_epi16(lo, zero), top);
        hi = _mm256_min_epi16(_mm256_max_epi16(hi, zero), top);
        let o = out.as_mut_ptr() as *mut __m256i;
        _mm256_storeu_si256(o, lo);
        _mm256_storeu_si256(o.add(1), hi);
    }
}

/// [`upper_layers_plain`] with AVX2.
///
/// # Safety
/// The CPU must have AVX2; `stack` must have the sizes of the module's constants.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub unsafe fn upper_layers_avx2(stack: &Stack, inputs: &[i16; INPUTS2]) -> i32 {
    use std::arch::x86_64::*;
    const _: () = assert!(INPUTS2 == 48 && HIDDEN2.is_multiple_of(8));
    // SAFETY: AVX2 by the caller; the slices have the lengths the loads read.
    unsafe {
        let x = inputs.as_ptr() as *const __m256i;
        let (x0, x1, x2) = (_mm256_loadu_si256(x), _mm256_loadu_si256(x.add(1)), _mm256_loadu_si256(x.add(2)));
        let dot = |j: usize| -> __m256i {
            let w = stack.w2.as_ptr().add(j * INPUTS2) as *const __m256i;
            let a = _mm256_madd_epi16(x0, _mm256_loadu_si256(w));
            let b = _mm256_madd_epi16(x1, _mm256_loadu_si256(w.add(1)));
            let c = _mm256_madd_epi16(x2, _mm256_loadu_si256(w.add(2)));
            _mm256_add_epi32(_mm256_add_epi32(a, b), c)
        };
        let mut total = _mm256_setzero_si256();
        let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi32(Q1));
        for g in 0..HIDDEN2 / 8 {
            let j = g * 8;
            let s01 = _mm256_hadd_epi32(dot(j), dot(j + 1));
            let s23 = _mm256_hadd_epi32(dot(j + 2), dot(j + 3));
            let s45 = _mm256_hadd_epi32(dot(j + 4), dot(j + 5));
            let s67 = _mm256_hadd_epi32(dot(j + 6), dot(j + 7));
            let s0123 = _mm256_hadd_epi32(s01, s23);
            let s4567 = _mm256_hadd_epi32(s45, s67);
            // Lanes 0-3 of each half hold outputs j..j+3 (low half) or j+4..j+7: add the halves.
            let sums = _mm256_add_epi32(
                _mm256_permute2x128_si256(s0123, s4567, 0x20),
                _mm256_permute2x128_si256(s0123, s4567, 0x31),
            );
            let z = _mm256_add_epi32(sums, _mm256_loadu_si256(stack.b2.as_ptr().add(j) as *const __m256i));
            let a = _mm256_min_epi32(_mm256_max_epi32(_mm256_srai_epi32(z, 6), zero), top);
            let w3 = _mm256_cvtepi16_epi32(_mm_loadu_si128(stack.w3.as_ptr().add(j) as *const __m128i));
            total = _mm256_add_epi32(total, _mm256_mullo_epi32(a, w3));
        }
        let half = _mm_add_epi32(_mm256_castsi256_si128(total), _mm256_extracti128_si256(total, 1));
        let quad = _mm_add_epi32(half, _mm_shuffle_epi32(half, 0b01_00_11_10));
        let one = _mm_add_epi32(quad, _mm_shuffle_epi32(quad, 0b10_11_00_01));
        (stack.b3 + _mm_cvtsi128_si32(one)) >> 7
    }
}
