//! Board geometry as masks: rows, columns, the eight directions as shifts with the edge masks that
//! stop wrap-around, and the ray from every square in every direction.
//!
//! With `a1` the most significant used bit, a left shift by 1 moves every disc one square toward
//! column `a` (west), a left shift by `N` one row toward row 1 (north); `N+1` and `N-1` are the
//! diagonals. A horizontal or diagonal shift would carry a disc from one edge column into the
//! other, onto the neighbouring row: masking the *opponent* discs to the inner columns (`b` to the
//! next-to-last column) stops every run there, because a run of opponent discs that flips can
//! never pass through an edge column. Vertical shifts need no mask: a disc shifted past row 1 or
//! the last row leaves the board's bits, and no disc lives above bit `N*N-1`.
//!
//! Every function here is `const`, so the tables are built at compile time from the same code the
//! tests and the teaching display read.

/// The low `n*n` bits: every square of an `n x n` board.
///
/// ```
/// assert_eq!(othello_explorer::board::geometry::full_mask(6), 0xf_ffff_ffff);
/// ```
pub const fn full_mask(n: usize) -> u64 {
    if n * n == 64 { u64::MAX } else { (1u64 << (n * n)) - 1 }
}

/// The bit of the square at `col`, `row` (both from 0) on an `n x n` board.
pub const fn bit(n: usize, col: usize, row: usize) -> u32 {
    (n * n - 1 - (row * n + col)) as u32
}

/// Every square of column `col` (0 = `a`).
pub(crate) const fn column_mask(n: usize, col: usize) -> u64 {
    let mut m = 0;
    let mut row = 0;
    while row < n {
        m |= 1u64 << bit(n, col, row);
        row += 1;
    }
    m
}

/// Every square of row `row` (0 = row 1).
pub(crate) const fn row_mask(n: usize, row: usize) -> u64 {
    let mut m = 0;
    let mut col = 0;
    while col < n {
        m |= 1u64 << bit(n, col, row);
        col += 1;
    }
    m
}

/// Every square but the first and last columns: `0x6666` on 4x4, `0x7e7e7e7e7e7e7e7e` on 8x8.
///
/// ```
/// use othello_explorer::board::geometry::inner_columns;
/// assert_eq!(inner_columns(4), 0x6666);
/// assert_eq!(inner_columns(6), 0x79e79e79e);
/// assert_eq!(inner_columns(8), 0x7e7e7e7e7e7e7e7e);
/// ```
pub const fn inner_columns(n: usize) -> u64 {
    full_mask(n) & !column_mask(n, 0) & !column_mask(n, n - 1)
}

/// A compass direction on the board, as a shift of the whole bitboard.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Direction {
    /// The compass name: `"west"`, `"north-east"`, …
    pub name: &'static str,
    /// Column step: -1 toward column `a`, +1 toward the last column.
    pub dcol: i32,
    /// Row step: -1 toward row 1, +1 toward the last row.
    pub drow: i32,
}

/// The eight directions: the four that shift left (toward `a1`, higher bits) first, then their
/// opposites in the same order.
pub const DIRECTIONS: [Direction; 8] = [
    Direction { name: "west", dcol: -1, drow: 0 },
    Direction { name: "north-east", dcol: 1, drow: -1 },
    Direction { name: "north", dcol: 0, drow: -1 },
    Direction { name: "north-west", dcol: -1, drow: -1 },
    Direction { name: "east", dcol: 1, drow: 0 },
    Direction { name: "south-west", dcol: -1, drow: 1 },
    Direction { name: "south", dcol: 0, drow: 1 },
    Direction { name: "south-east", dcol: 1, drow: 1 },
];

impl Direction {
    /// How far one step in this direction moves a square's index in reading order
    /// (`row * n + col`); the bit index moves the other way.
    pub const fn delta(&self, n: usize) -> i32 {
        self.drow * n as i32 + self.dcol
    }

    /// How far the bitboard shifts for one step on an `n x n` board: 1, `n-1`, `n` or `n+1`.
    ///
    /// ```
    /// use othello_explorer::board::geometry::DIRECTIONS;
    /// let shifts: Vec<u32> = DIRECTIONS.iter().map(|d| d.shift(8)).collect();
    /// assert_eq!(shifts, [1, 7, 8, 9, 1, 7, 8, 9]);
    /// ```
    pub const fn shift(&self, n: usize) -> u32 {
        self.delta(n).unsigned_abs()
    }

    /// Whether a step is a left shift (toward `a1`, the higher bits).
    pub(crate) const fn is_left(&self) -> bool {
        self.delta(8) < 0
    }

    /// The Rust operator of a step: `"<<"` or `">>"`.
    pub const fn operator(&self) -> &'static str {
        if self.is_left() { "<<" } else { ">>" }
    }

    /// Moves every bit of `bits` one step in this direction (bits leaving the word are lost; the
    /// caller masks what wraps).
    #[inline(always)]
    pub const fn step(&self, n: usize, bits: u64) -> u64 {
        if self.is_left() { bits << self.shift(n) } else { bits >> self.shift(n) }
    }

    /// The mask the opponent's discs are ANDed with before each step, so no run wraps from one
    /// edge column to the other: the inner columns for horizontal and diagonal steps, the whole
    /// board for vertical ones.
    pub(crate) const fn edge_mask(&self, n: usize) -> u64 {
        if self.dcol == 0 { full_mask(n) } else { inner_columns(n) }
    }
}

/// The four centre squares of an `n x n` board (the start's discs, never emptied in a game).
pub const fn centre(n: usize) -> u64 {
    let (lo, hi) = (n / 2 - 1, n / 2);
    (1 << bit(n, lo, lo)) | (1 << bit(n, hi, lo)) | (1 << bit(n, lo, hi)) | (1 << bit(n, hi, hi))
}

/// The squares next to `set` in any of the eight directions on an `n x n` board.
///
/// ```
/// use othello_explorer::board::geometry::neighbours;
/// // 4x4: around a1 (bit 15) are b1, a2 and b2 (bits 14, 11 and 10).
/// assert_eq!(neighbours(4, 1 << 15), (1 << 14) | (1 << 11) | (1 << 10));
/// ```
pub const fn neighbours(n: usize, set: u64) -> u64 {
    let mut out = 0;
    let mut i = 0;
    while i < DIRECTIONS.len() {
        let d = &DIRECTIONS[i];
        // A step toward column `a` must not start there, nor one toward the last column.
        let from = match d.dcol {
            -1 => set & !column_mask(n, 0),
            1 => set & !column_mask(n, n - 1),
            _ => set,
        };
        out |= d.step(n, from);
        i += 1;
    }
    out & full_mask(n)
}

/// The squares of `set` joined to `seed` through `set`, 8 ways (`seed`'s squares outside `set`
/// are left out).
pub const fn spread(n: usize, set: u64, seed: u64) -> u64 {
    let mut reached = seed & set;
    loop {
        let next = reached | (neighbours(n, reached) & set);
        if next == reached {
            return reached;
        }
        reached = next;
    }
}

/// The squares from (`col`, `row`) in direction `dir`, the square itself excluded, to the edge.
pub const fn ray(n: usize, col: usize, row: usize, dir: &Direction) -> u64 {
    let mut m = 0;
    let mut c = col as i32 + dir.dcol;
    let mut r = row as i32 + dir.drow;
    while c >= 0 && r >= 0 && c < n as i32 && r < n as i32 {
        m |= 1u64 << bit(n, c as usize, r as usize);
        c += dir.dcol;
        r += dir.drow;
    }
    m
}

/// For every bit index, the ray in each of the eight [`DIRECTIONS`], indexed `[bit][direction]`.
/// Bits beyond `n*n` hold empty rays.
pub const fn rays(n: usize) -> [[u64; 8]; 64] {
    let mut table = [[0u64; 8]; 64];
    let mut row = 0;
    while row < n {
        let mut col = 0;
        while col < n {
            let b = bit(n, col, row) as usize;
            let mut d = 0;
            while d < 8 {
                table[b][d] = ray(n, col, row, &DIRECTIONS[d]);
                d += 1;
            }
            col += 1;
        }
        row += 1;
    }
    table
}

/// Rays of the 8x8 board (the table the teaching traces name; the kernels read [`rays_of`], and
/// [`rays`] makes the table of any size).
pub static RAYS_8: [[u64; 8]; 64] = rays(8);

/// A ray table on a 64-byte boundary: each square's eight rays fill one cache line, so the
/// vector flip kernel's two 32-byte loads never straddle two lines.
#[repr(C, align(64))]
struct CacheAligned([[u64; 8]; 64]);

static ALIGNED_RAYS_4: CacheAligned = CacheAligned(rays(4));
static ALIGNED_RAYS_6: CacheAligned = CacheAligned(rays(6));
static ALIGNED_RAYS_8: CacheAligned = CacheAligned(rays(8));

/// The ray table of the `n x n` board (the same rays as [`RAYS_8`] and its kin, aligned to cache
/// lines).
#[inline(always)]
pub(crate) fn rays_of(n: usize) -> &'static [[u64; 8]; 64] {
    match n {
        4 => &ALIGNED_RAYS_4.0,
        6 => &ALIGNED_RAYS_6.0,
        _ => &ALIGNED_RAYS_8.0,
    }
}
