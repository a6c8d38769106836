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

/// The first layer's sums kept move by move, plain: `sums` holds the bias plus the rows of the
/// indexes `from`; it becomes the same for the indexes `to`, each lane where they differ taking
/// its row for `from` out and its row for `to` in. Returns the lanes that differ. Wrapping adds
/// give the leaf sum's integers: 46 rows of `i8` and the bias never leave `i16`, so no sum
/// saturates ([`first_layer_plain`]'s saturating adds never clip either).
#[inline(always)]
pub fn update_sums_plain(
    table: &[TableRow],
    offsets: &[u32],
    from: &[u16],
    to: &[u16],
    sums: &mut [i16; HIDDEN],
) -> u32 {
    let mut changed = 0;
    for ((&at, &a), &b) in offsets.iter().zip(from).zip(to) {
        if a != b {
            changed += 1;
            let (out, put) = (&table[at as usize + a as usize].0, &table[at as usize + b as usize].0);
            for ((s, &x), &y) in sums.iter_mut().zip(out).zip(put) {
                *s = s.wrapping_sub(x as i16).wrapping_add(y as i16);
            }
        }
    }
    changed
}

/// [`update_sums_plain`] with AVX2: the lanes that differ found by comparing the two index rows
/// 16 lanes at a time (no branch per lane), then only their rows read.
///
/// # Safety
/// The CPU must have AVX2; `from` and `to` must have at least `offsets.len()` lanes rounded up
/// to 16 (a pattern [`crate::eval::pattern::Row`] has 48); every `offsets[k] + from[k]` and
/// `offsets[k] + to[k]` must be inside `table`.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
pub(crate) unsafe fn update_sums_avx2(
    table: &[TableRow],
    offsets: &[u32],
    from: &[u16],
    to: &[u16],
    sums: &mut [i16; HIDDEN],
) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: AVX2 by the caller; the index rows hold whole 16-lane chunks; rows are 32 bytes and
    // 32-byte aligned; `sums` is 32 lanes.
    unsafe {
        let s = sums.as_mut_ptr() as *mut __m256i;
        let (mut lo, mut hi) = (_mm256_loadu_si256(s), _mm256_loadu_si256(s.add(1)));
        let lanes = offsets.len();
        let mut changed = 0;
        for chunk in 0..lanes.div_ceil(16) {
            let a = _mm256_loadu_si256(from.as_ptr().add(16 * chunk) as *const __m256i);
            let b = _mm256_loadu_si256(to.as_ptr().add(16 * chunk) as *const __m256i);
            // Two mask bits a lane; keep the even ones of the lanes that differ.
            let same = _mm256_movemask_epi8(_mm256_cmpeq_epi16(a, b)) as u32;
            let valid = if 16 * (chunk + 1) <= lanes { u32::MAX } else { (1u32 << (2 * (lanes - 16 * chunk))) - 1 };
            let mut differ = !same & valid & 0x5555_5555;
            while differ != 0 {
                let k = 16 * chunk + differ.trailing_zeros() as usize / 2;
                differ &= differ - 1;
                changed += 1;
                let at = *offsets.get_unchecked(k) as usize;
                let out = table.get_unchecked(at + *from.get_unchecked(k) as usize).0.as_ptr() as *const __m128i;
                let put = table.get_unchecked(at + *to.get_unchecked(k) as usize).0.as_ptr() as *const __m128i;
                let row = |r: *const __m128i| _mm256_cvtepi8_epi16(_mm_load_si128(r));
                lo = _mm256_add_epi16(_mm256_sub_epi16(lo, row(out)), row(put));
                hi = _mm256_add_epi16(_mm256_sub_epi16(hi, row(out.add(1))), row(put.add(1)));
            }
        }
        _mm256_storeu_si256(s, lo);
        _mm256_storeu_si256(s.add(1), hi);
        changed
    }
}

/// The first layer's sums before the activation, from scratch, plain: the bias plus one row per
/// placement (wrapping, which here is exact: see [`update_sums_plain`]).
#[inline(always)]
pub fn sums_plain(table: &[TableRow], bias: &Bias, offsets: &[u32], indexes: &[u16]) -> [i16; HIDDEN] {
    let mut acc = bias.0;
    for (&at, &index) in offsets.iter().zip(indexes) {
        for (a, &w) in acc.iter_mut().zip(&table[at as usize + index as usize].0) {
            *a = a.wrapping_add(w as i16);
        }
    }
    acc
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
