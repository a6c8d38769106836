//! Counting the flips of the very last move without computing them.
//!
//! With one empty square `x` left, every other square on the four lines through `x` holds a
//! disc, so the player's discs on a line decide the whole line. Each line through each square is
//! extracted as a small number with BMI2's `pext`, and a table built at compile time gives the
//! flips along that line. A line shorter than 8 reads as a line padded with opponent discs past
//! its end, which never bracket: so one table serves every board size.
//!
//! [`count_last_flips`] uses the lookups where the CPU has a fast `pext` ([`crate::board::isa`]) and
//! counts the flips otherwise; `rules::flips(..).count_ones()` is its plain twin, and the tests
//! check the lookups (with the software `pext` too) and every level against it on every square
//! of random full boards.

use crate::board::geometry::{DIRECTIONS, bit};
use crate::board::isa::{Isa, Level};

/// `TABLE[pos][pattern]`: the discs flipped on an 8-long line when the player, whose discs on the
/// line are the bits of `pattern`, plays at index `pos` (every other index holding an opponent
/// disc).
static TABLE: [[u8; 256]; 8] = build_table();

const fn build_table() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut pattern = 0;
        while pattern < 256 {
            let mut count = 0;
            // Upward.
            let mut i = pos + 1;
            while i < 8 && pattern >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                count += i - pos - 1;
            }
            // Downward.
            let mut j = pos as i32 - 1;
            while j >= 0 && pattern >> j & 1 == 0 {
                j -= 1;
            }
            if j >= 0 {
                count += pos - j as usize - 1;
            }
            t[pos][pattern] = count as u8;
            pattern += 1;
        }
        pos += 1;
    }
    t
}

/// For each square (by bit) and each of the four axes: the line's mask and the square's index in
/// it (its count of line bits below it).
pub struct Lines<const N: usize>;

impl<const N: usize> Lines<N> {
    pub(crate) const MASKS: [[(u64, u8); 4]; 64] = lines(N);
}

const fn lines(n: usize) -> [[(u64, u8); 4]; 64] {
    let mut out = [[(0u64, 0u8); 4]; 64];
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            let b = bit(n, col, row);
            let mut axis = 0;
            while axis < 4 {
                let line = crate::board::geometry::ray(n, col, row, &DIRECTIONS[axis])
                    | crate::board::geometry::ray(n, col, row, &DIRECTIONS[axis + 4])
                    | 1u64 << b;
                let below = (line & ((1u64 << b) - 1)).count_ones();
                out[b as usize][axis] = (line, below as u8);
                axis += 1;
            }
            col += 1;
        }
        row += 1;
    }
    out
}

/// The number of discs the player with discs `p` flips by playing the last empty square `sq`:
/// with a fast `pext`, four line lookups; otherwise the flips counted
/// (`rules::flips(..).count_ones()`, the plain twin).
#[inline(always)]
pub fn count_last_flips<const N: usize, I: Isa>(isa: I, p: u64, sq: u32) -> u32 {
    if I::LEVEL >= Level::Avx2Pext {
        by_lines::<N, I>(isa, p, sq)
    } else {
        let full = crate::board::geometry::full_mask(N);
        isa.flips::<N>(p, !p & full & !(1u64 << sq), sq).count_ones()
    }
}

/// [`count_last_flips`] by the line lookups, with the `pext` of `isa`.
#[inline(always)]
fn by_lines<const N: usize, I: Isa>(isa: I, p: u64, sq: u32) -> u32 {
    let lines = &Lines::<N>::MASKS[sq as usize];
    let mut n = 0;
    for &(mask, pos) in lines {
        let pattern = isa.pext(p, mask) as usize;
        n += TABLE[pos as usize][pattern & 0xff] as u32;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::geometry::full_mask;
    use crate::board::rules::flips;

    fn check<const N: usize>() {
        let mut rng = crate::testing::Rng(0x1234_5678_9abc_def0);
        for _ in 0..20_000 {
            let seed = rng.next();
            let sq = (seed % (N * N) as u64) as u32;
            let p = seed.rotate_left(17) & full_mask(N) & !(1 << sq);
            let o = !p & full_mask(N) & !(1 << sq);
            let expected = flips::<N>(p, o, sq).count_ones();
            assert_eq!(by_lines::<N, _>(crate::board::isa::Plain, p, sq), expected, "lines p {p:x} sq {sq}");
            for cpu in crate::board::isa::Cpu::available() {
                let count =
                    crate::with_cpu!(cpu, isa => isa.enter(#[inline(always)] || count_last_flips::<N, _>(isa, p, sq)));
                assert_eq!(count, expected, "{cpu:?} p {p:x} sq {sq}");
            }
        }
    }

    #[test]
    fn agrees_with_flips_on_every_size() {
        check::<4>();
        check::<6>();
        check::<8>();
    }
}
