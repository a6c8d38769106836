//! Pattern tables: a small group of squares (an edge with its X squares, a corner region, a
//! line) whose 3^k contents each have their own learned weight.
//!
//! # Indexing from bitboards
//!
//! A pattern is defined once, in the top-left orientation, as a mask `M` of `k` squares. Its
//! index is the base-3 number whose digit `j` is the state of the `j`-th lowest bit of `M`
//! (0 empty, 1 side to move, 2 opponent). Two steps make it from the bitboards:
//!
//! 1. **Gather**: `pext(p, M)` packs the `k` bits of `p` under `M` into the low `k` bits (one BMI2
//!    instruction where the CPU has a fast one, [`crate::board::isa::Isa::pext`]; [`gather`] is its plain
//!    twin), and the same for `o`.
//! 2. **Binary to ternary**: [`TERNARY`] maps a `k`-bit number to the base-3 number with the same
//!    digits, so `index = TERNARY[pext(p, M)] + 2 * TERNARY[pext(o, M)]` (`p` and `o` never share a
//!    bit, so no digit exceeds 2).
//!
//! The same pattern elsewhere on the board (the other three edges, the other corners) is read
//! from an *image* of the board under one of the eight symmetries ([`images`]): the bottom edge
//! of the board is the top edge of the board flipped top to bottom. So every placement uses the
//! one mask and one table, and the digits always run in the same order relative to the corner.
//! A placement whose squares map onto themselves under a symmetry (the top edge under the
//! left-right mirror) is read once; its table is kept symmetric instead ([`Layout::canon`]),
//! which makes the evaluation of the eight images of a position exactly equal.

use crate::board::geometry::bit;
use crate::board::isa::Isa;
use crate::board::size::Size;
use crate::board::symmetry::Symmetry;
use std::sync::OnceLock;

/// A pattern: a name and its squares as `(column, row)` from `a1`, in the top-left orientation.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// A short name, for the docs and the fitting tool's report.
    pub name: &'static str,
    /// The squares, `(column, row)` with `(0, 0)` = `a1`.
    pub squares: &'static [(u8, u8)],
}

impl Pattern {
    /// Its squares as a mask on an `n x n` board.
    pub const fn mask(&self, n: usize) -> u64 {
        let mut m = 0;
        let mut i = 0;
        while i < self.squares.len() {
            let (c, r) = self.squares[i];
            m |= 1u64 << bit(n, c as usize, r as usize);
            i += 1;
        }
        m
    }

    /// The number of entries of its table, `3^k`.
    pub const fn table_len(&self) -> usize {
        3usize.pow(self.squares.len() as u32)
    }
}

/// The top row, and the two X squares (`b2` and the one before the last column, row 2).
const fn edge_x<const K: usize>() -> [(u8, u8); K] {
    const { assert!(K >= 6) };
    let n = K - 2;
    let mut s = [(0u8, 0u8); K];
    let mut c = 0;
    while c < n {
        s[c] = (c as u8, 0);
        c += 1;
    }
    s[n] = (1, 1);
    s[n + 1] = ((n - 2) as u8, 1);
    s
}

/// Row `r` whole.
const fn row<const N: usize>(r: u8) -> [(u8, u8); N] {
    let mut s = [(0u8, 0u8); N];
    let mut c = 0;
    while c < N {
        s[c] = (c as u8, r);
        c += 1;
    }
    s
}

/// A `w x h` block in the top-left corner.
const fn block<const K: usize>(w: u8) -> [(u8, u8); K] {
    let mut s = [(0u8, 0u8); K];
    let mut i = 0;
    while i < K {
        s[i] = ((i % w as usize) as u8, (i / w as usize) as u8);
        i += 1;
    }
    s
}

/// The diagonal of `L` squares that cuts the `a1` corner: `(i, L-1-i)`.
const fn diagonal<const L: usize>() -> [(u8, u8); L] {
    let mut s = [(0u8, 0u8); L];
    let mut i = 0;
    while i < L {
        s[i] = (i as u8, (L - 1 - i) as u8);
        i += 1;
    }
    s
}

const EDGE_X_8: [(u8, u8); 10] = edge_x::<10>();
const EDGE_X_6: [(u8, u8); 8] = edge_x::<8>();
const CORNER_3X3: [(u8, u8); 9] = block::<9>(3);
const CORNER_4X2: [(u8, u8); 8] = block::<8>(4);
const CORNER_5X2: [(u8, u8); 10] = block::<10>(5);
const ROWS_4X2: [(u8, u8); 8] = block::<8>(4);
const ROW2_8: [(u8, u8); 8] = row::<8>(1);
const ROW3_8: [(u8, u8); 8] = row::<8>(2);
const ROW4_8: [(u8, u8); 8] = row::<8>(3);
const ROW2_6: [(u8, u8); 6] = row::<6>(1);
const ROW3_6: [(u8, u8); 6] = row::<6>(2);
const DIAG_8: [(u8, u8); 8] = diagonal::<8>();
const DIAG_7: [(u8, u8); 7] = diagonal::<7>();
const DIAG_6: [(u8, u8); 6] = diagonal::<6>();
const DIAG_5: [(u8, u8); 5] = diagonal::<5>();
const DIAG_4: [(u8, u8); 4] = diagonal::<4>();
const DIAG_3: [(u8, u8); 3] = diagonal::<3>();

/// The 8x8 set: 46 placements.
pub(crate) const PATTERNS_8: &[Pattern] = &[
    Pattern { name: "edge+2X", squares: &EDGE_X_8 },
    Pattern { name: "corner 3x3", squares: &CORNER_3X3 },
    Pattern { name: "corner 5x2", squares: &CORNER_5X2 },
    Pattern { name: "row 2", squares: &ROW2_8 },
    Pattern { name: "row 3", squares: &ROW3_8 },
    Pattern { name: "row 4", squares: &ROW4_8 },
    Pattern { name: "diagonal 8", squares: &DIAG_8 },
    Pattern { name: "diagonal 7", squares: &DIAG_7 },
    Pattern { name: "diagonal 6", squares: &DIAG_6 },
    Pattern { name: "diagonal 5", squares: &DIAG_5 },
    Pattern { name: "diagonal 4", squares: &DIAG_4 },
];

/// The 6x6 set: 38 placements.
pub(crate) const PATTERNS_6: &[Pattern] = &[
    Pattern { name: "edge+2X", squares: &EDGE_X_6 },
    Pattern { name: "corner 3x3", squares: &CORNER_3X3 },
    Pattern { name: "corner 4x2", squares: &CORNER_4X2 },
    Pattern { name: "row 2", squares: &ROW2_6 },
    Pattern { name: "row 3", squares: &ROW3_6 },
    Pattern { name: "diagonal 6", squares: &DIAG_6 },
    Pattern { name: "diagonal 5", squares: &DIAG_5 },
    Pattern { name: "diagonal 4", squares: &DIAG_4 },
    Pattern { name: "diagonal 3", squares: &DIAG_3 },
];

/// The 4x4 set: 14 placements. Two rows are half the board, so the table sees the centre too.
pub(crate) const PATTERNS_4: &[Pattern] = &[
    Pattern { name: "rows 1-2", squares: &ROWS_4X2 },
    Pattern { name: "corner 3x3", squares: &CORNER_3X3 },
    Pattern { name: "diagonal 4", squares: &DIAG_4 },
    Pattern { name: "diagonal 3", squares: &DIAG_3 },
];

/// The pattern set of the `n x n` board (4, 6 or 8).
pub const fn patterns(n: usize) -> &'static [Pattern] {
    match n {
        4 => PATTERNS_4,
        6 => PATTERNS_6,
        _ => PATTERNS_8,
    }
}

/// The largest pattern, in squares.
pub(crate) const MAX_SQUARES: usize = 10;

/// `TERNARY[b]`: the base-3 number whose digits are the bits of `b` (`0b101` -> `1 + 9 = 10`).
pub static TERNARY: [u16; 1 << MAX_SQUARES] = ternary_table();

const fn ternary_table() -> [u16; 1 << MAX_SQUARES] {
    let mut t = [0u16; 1 << MAX_SQUARES];
    let mut b = 0;
    while b < t.len() {
        let (mut v, mut place, mut rest) = (0u32, 1u32, b);
        while rest != 0 {
            if rest & 1 != 0 {
                v += place;
            }
            place *= 3;
            rest >>= 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
}

/// The bits of `x` under `mask`, packed into the low bits in order: BMI2's `pext`, one mask bit
/// at a time (the plain twin of [`crate::board::isa::Isa::pext`]).
///
/// ```
/// use othello_explorer::eval::pattern::gather;
/// assert_eq!(gather(0b1010_0110, 0b1111_0000), 0b1010);
/// ```
#[inline(always)]
pub fn gather(x: u64, mask: u64) -> u64 {
    crate::board::isa::pext_scalar(x, mask)
}

/// The index of a pattern's contents: `p` and `o` under `mask`, as a base-3 number.
#[inline(always)]
pub fn ternary_index(p: u64, o: u64, mask: u64) -> usize {
    ternary_index_on(crate::board::isa::Plain, p, o, mask)
}

/// [`ternary_index`] with the `pext` of `isa`.
#[inline(always)]
pub(crate) fn ternary_index_on<I: Isa>(isa: I, p: u64, o: u64, mask: u64) -> usize {
    // The masks have at most MAX_SQUARES bits: the `&` only spares the bounds checks.
    const LOW: usize = (1 << MAX_SQUARES) - 1;
    TERNARY[isa.pext(p, mask) as usize & LOW] as usize + 2 * TERNARY[isa.pext(o, mask) as usize & LOW] as usize
}

/// Masks for the symmetries of the `N x N` board, built at compile time.
struct Masks<const N: usize>;

impl<const N: usize> Masks<N> {
    const ROWS: [u64; 8] = {
        let mut m = [0; 8];
        let mut r = 0;
        while r < N {
            m[r] = crate::board::geometry::row_mask(N, r);
            r += 1;
        }
        m
    };
    const COLUMNS: [u64; 8] = {
        let mut m = [0; 8];
        let mut c = 0;
        while c < N {
            m[c] = crate::board::geometry::column_mask(N, c);
            c += 1;
        }
        m
    };
    /// `DIAGONALS[k]`: the squares with `row - col = k - (N - 1)`.
    const DIAGONALS: [u64; 15] = {
        let mut m = [0; 15];
        let mut c = 0;
        while c < N {
            let mut r = 0;
            while r < N {
                m[r + N - 1 - c] |= 1u64 << bit(N, c, r);
                r += 1;
            }
            c += 1;
        }
        m
    };
}

/// Row `r` moves to row `N-1-r`.
#[inline(always)]
fn flip_rows<const N: usize>(x: u64) -> u64 {
    if N == 8 {
        return x.swap_bytes();
    }
    let mut out = 0;
    for r in 0..N {
        let d = (N as i32 - 1 - 2 * r as i32) * N as i32;
        let row = x & Masks::<N>::ROWS[r];
        out |= if d >= 0 { row >> d } else { row << -d };
    }
    out
}

/// Column `c` moves to column `N-1-c`.
#[inline(always)]
fn mirror_columns<const N: usize>(x: u64) -> u64 {
    if N == 8 {
        return x.reverse_bits().swap_bytes();
    }
    let mut out = 0;
    for c in 0..N {
        let d = N as i32 - 1 - 2 * c as i32;
        let col = x & Masks::<N>::COLUMNS[c];
        out |= if d >= 0 { col >> d } else { col << -d };
    }
    out
}

/// `(c, r)` moves to `(r, c)`.
#[inline(always)]
fn transpose<const N: usize>(x: u64) -> u64 {
    if N == 8 {
        // Three delta swaps: 4x4 blocks, then 2x2, then single squares.
        let mut x = x;
        let t = 0x0f0f_0f0f_0000_0000 & (x ^ (x << 28));
        x ^= t ^ (t >> 28);
        let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
        x ^= t ^ (t >> 14);
        let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
        return x ^ t ^ (t >> 7);
    }
    // Diagonal `row - col = k` moves by `k (N - 1)` bits.
    let mut out = 0;
    for i in 0..2 * N - 1 {
        let k = i as i32 - (N as i32 - 1);
        let d = x & Masks::<N>::DIAGONALS[i];
        let s = k.unsigned_abs() * (N as u32 - 1);
        out |= if k >= 0 { d << s } else { d >> s };
    }
    out
}

/// The eight images of a mask, in the order of [`Symmetry::ALL`]: `images(x)[i]` is
/// `Symmetry::ALL[i].apply(size, x)`.
#[inline(always)]
pub fn images<const N: usize>(x: u64) -> [u64; 8] {
    let m = mirror_columns::<N>(x);
    let t = transpose::<N>(x);
    let tm = mirror_columns::<N>(t);
    [x, m, flip_rows::<N>(x), flip_rows::<N>(m), t, tm, flip_rows::<N>(t), flip_rows::<N>(tm)]
}

/// One placement of a pattern: the board image it reads, its mask there, where its table starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Instance {
    /// Index into [`images`] (and [`Symmetry::ALL`]).
    pub image: u8,
    /// Which pattern of the set.
    pub pattern: u8,
    /// The pattern's mask (the same for all its placements).
    pub mask: u64,
    /// Where the pattern's table starts in the stage's concatenated tables.
    pub offset: u32,
}

/// A size's pattern set laid out for evaluation: the placements, the table offsets, and the
/// canonical entry of every table entry.
#[derive(Debug, PartialEq, Eq)]
pub struct Layout {
    /// The board side.
    pub n: usize,
    /// Every placement, pattern by pattern.
    pub instances: Vec<Instance>,
    /// Where each pattern's table starts; the last entry is the total length.
    pub offsets: Vec<usize>,
    /// For every entry of the concatenated tables, the entry that stands for it: the smallest
    /// index among the contents the pattern's own symmetries make of it (the top edge read left to
    /// right or right to left). Weights are stored and fitted for canonical entries only.
    pub canon: Vec<u32>,
    /// For every board square (by bit), what one disc there adds to each placement's index:
    /// `3^j` in lane `k` when the square is digit `j` of placement `k`, else 0
    /// ([`super::indexes`]).
    pub deltas: Vec<Row>,
    /// Each placement's table offset, by lane (0 beyond the last placement).
    pub lane_offsets: [u32; LANES],
}

/// How many placements the `n x n` layout has ([`Layout::instances`]), known at compile time so
/// that the search's evaluation loops over a constant count.
pub const fn placements(n: usize) -> usize {
    match n {
        8 => 46,
        6 => 38,
        _ => 14,
    }
}

/// How many placements an [`super::indexes::Indexes`] holds: the largest set (8x8, 46) rounded
/// up to whole 256-bit vectors of `u16`.
pub const LANES: usize = 48;

/// One `u16` per placement, aligned for vector loads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C, align(32))]
pub struct Row(pub [u16; LANES]);

impl Layout {
    /// The layout of the `n x n` pattern set (built once, then shared).
    pub fn of(n: usize) -> &'static Layout {
        static LAYOUTS: [OnceLock<Layout>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        let slot = match n {
            4 => 0,
            6 => 1,
            _ => 2,
        };
        LAYOUTS[slot].get_or_init(|| Layout::build(n))
    }

    fn build(n: usize) -> Layout {
        let size = Size::from_n(n).expect("4, 6 or 8");
        let set = patterns(n);
        let mut offsets = vec![0];
        let mut instances = Vec::new();
        let mut canon = Vec::new();
        for (pi, pattern) in set.iter().enumerate() {
            let mask = pattern.mask(n);
            let offset = *offsets.last().unwrap();
            // A placement for each distinct set of squares read, g^-1(M).
            let mut seen = Vec::new();
            let mut stabiliser = Vec::new();
            for (gi, g) in Symmetry::ALL.iter().enumerate() {
                let read = g.inverse().apply(size, mask);
                if read == mask {
                    stabiliser.push(*g);
                }
                if !seen.contains(&read) {
                    seen.push(read);
                    instances.push(Instance { image: gi as u8, pattern: pi as u8, mask, offset: offset as u32 });
                }
            }
            // Digit permutations of the symmetries that keep the mask.
            let bits: Vec<u64> = (0..64).map(|b| 1u64 << b).filter(|b| mask & b != 0).collect();
            let perms: Vec<Vec<usize>> = stabiliser
                .iter()
                .map(|g| bits.iter().map(|&b| bits.iter().position(|&t| t == g.apply(size, b)).unwrap()).collect())
                .collect();
            for index in 0..pattern.table_len() {
                let digits = to_digits(index, bits.len());
                let best = perms
                    .iter()
                    .map(|perm| {
                        let mut moved = vec![0; digits.len()];
                        for (j, &d) in digits.iter().enumerate() {
                            moved[perm[j]] = d;
                        }
                        from_digits(&moved)
                    })
                    .min()
                    .unwrap_or(index);
                canon.push((offset + best) as u32);
            }
            offsets.push(offset + pattern.table_len());
        }
        assert!(instances.len() <= LANES, "at most {LANES} placements");
        let mut deltas = vec![Row([0; LANES]); n * n];
        let mut lane_offsets = [0; LANES];
        for (k, inst) in instances.iter().enumerate() {
            lane_offsets[k] = inst.offset;
            let g = Symmetry::ALL[inst.image as usize];
            for (b, row) in deltas.iter_mut().enumerate() {
                // The board's square `b` shows at `g(b)` in the placement's image.
                let at = g.apply(size, 1u64 << b);
                if inst.mask & at != 0 {
                    row.0[k] = 3u16.pow((inst.mask & (at - 1)).count_ones());
                }
            }
        }
        Layout { n, instances, offsets, canon, deltas, lane_offsets }
    }

    /// The total length of the concatenated tables.
    pub fn table_len(&self) -> usize {
        *self.offsets.last().unwrap()
    }

    /// The entries that stand for themselves, in order: the ones a weights file stores.
    pub fn canonical_entries(&self) -> impl Iterator<Item = usize> + '_ {
        self.canon.iter().enumerate().filter(|&(i, &c)| c as usize == i).map(|(i, _)| i)
    }
}

fn to_digits(mut index: usize, k: usize) -> Vec<u8> {
    (0..k)
        .map(|_| {
            let d = (index % 3) as u8;
            index /= 3;
            d
        })
        .collect()
}

fn from_digits(digits: &[u8]) -> usize {
    digits.iter().rev().fold(0, |acc, &d| acc * 3 + d as usize)
}

/// Every placement's entry in the concatenated tables (canonical): what the evaluation reads.
/// With the kernels of the level this CPU runs ([`crate::board::isa::Cpu::detect`]): the trainer reads
/// every position's entries again at each pass, and the software `pext` took four fifths of its
/// time. So a level with a fast `pext` reads each placement through the images and `pext`, and
/// one without (AMD before Zen 3, baseline x86-64) sums the rows of [`Layout::deltas`] of every
/// disc instead, all placements at once, as the search keeps its indexes move by move.
pub fn pattern_entries<const N: usize>(p: u64, o: u64, out: &mut Vec<u32>) {
    crate::with_cpu!(crate::board::isa::Cpu::detect(), isa => isa.enter(
        #[inline(always)]
        || pattern_entries_on::<N, _>(isa, p, o, out),
    ))
}

/// [`pattern_entries`] with the kernels of `isa`.
#[inline(always)]
pub(crate) fn pattern_entries_on<const N: usize, I: Isa>(isa: I, p: u64, o: u64, out: &mut Vec<u32>) {
    let layout = Layout::of(N);
    if I::LEVEL < crate::board::isa::Level::Avx2Pext {
        let own = super::indexes::Indexes::own_of(layout, p, o);
        let offsets = &layout.lane_offsets[..layout.instances.len()];
        out.extend(offsets.iter().zip(&own.0).map(|(&at, &index)| layout.canon[at as usize + index as usize]));
        return;
    }
    let (pi, oi) = (images::<N>(p), images::<N>(o));
    out.extend(layout.instances.iter().map(|inst| {
        let g = inst.image as usize;
        layout.canon[inst.offset as usize + ternary_index_on(isa, pi[g], oi[g], inst.mask)]
    }));
}

/// [`pattern_entries`]' plain twin: each digit read square by square from the board itself, at
/// the square the placement's symmetry brings under the mask.
pub fn pattern_entries_scalar(n: usize, p: u64, o: u64, out: &mut Vec<u32>) {
    let layout = Layout::of(n);
    let size = Size::from_n(n).expect("4, 6 or 8");
    for inst in &layout.instances {
        let g = Symmetry::ALL[inst.image as usize];
        let mut index = 0;
        let mut place = 1;
        for b in 0..n * n {
            let sq = 1u64 << b;
            if inst.mask & sq == 0 {
                continue;
            }
            // The image's square `sq` shows the board's square g^-1(sq).
            let from = g.inverse().apply(size, sq);
            let digit = if p & from != 0 {
                1
            } else if o & from != 0 {
                2
            } else {
                0
            };
            index += digit * place;
            place *= 3;
        }
        out.push(layout.canon[inst.offset as usize + index]);
    }
}

#[cfg(test)]
mod tests;
