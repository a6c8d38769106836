//! The eight symmetries of the square board and the canonical form of a position: the smallest
//! of its eight images, a key shared by every symmetric twin.
//!
//! Each symmetry moves whole columns, rows or diagonals with one masked shift each, so it costs
//! `O(N)` operations whatever the number of discs.

use crate::board::geometry::{bit, column_mask, full_mask, row_mask};
use crate::{board::position::Position, board::size::Size, board::square::Square};

/// One of the eight symmetries of the square.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Leave the board as it is.
    Identity,
    /// Mirror left to right (column `a` becomes the last column).
    MirrorColumns,
    /// Flip top to bottom (row 1 becomes the last row).
    FlipRows,
    /// Turn half a turn.
    Rotate180,
    /// Swap rows and columns (reflect in the `a1`–last-square diagonal).
    Transpose,
    /// Turn a quarter turn clockwise.
    Rotate90,
    /// Turn a quarter turn counter-clockwise.
    Rotate270,
    /// Reflect in the other diagonal.
    AntiTranspose,
}

impl Symmetry {
    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::MirrorColumns,
        Symmetry::FlipRows,
        Symmetry::Rotate180,
        Symmetry::Transpose,
        Symmetry::Rotate90,
        Symmetry::Rotate270,
        Symmetry::AntiTranspose,
    ];

    /// A short name: `"identity"`, `"mirror"`, `"rotate 90"`, …
    pub const fn name(self) -> &'static str {
        match self {
            Symmetry::Identity => "identity",
            Symmetry::MirrorColumns => "mirror columns",
            Symmetry::FlipRows => "flip rows",
            Symmetry::Rotate180 => "rotate 180",
            Symmetry::Transpose => "transpose",
            Symmetry::Rotate90 => "rotate 90",
            Symmetry::Rotate270 => "rotate 270",
            Symmetry::AntiTranspose => "anti-transpose",
        }
    }

    /// The image of a mask on a board of `size`.
    ///
    /// ```
    /// use othello_explorer::{Size, board::symmetry::Symmetry};
    /// // a1 (bit 15 on 4x4) goes to d1 (bit 12) in the mirror, to a4 (bit 3) when flipped.
    /// assert_eq!(Symmetry::MirrorColumns.apply(Size::Four, 1 << 15), 1 << 12);
    /// assert_eq!(Symmetry::FlipRows.apply(Size::Four, 1 << 15), 1 << 3);
    /// ```
    pub fn apply(self, size: Size, bits: u64) -> u64 {
        let n = size.n();
        // Every symmetry is (transpose or not) followed by a mirror, a flip, both or neither.
        let (t, m, f) = match self {
            Symmetry::Identity => (false, false, false),
            Symmetry::MirrorColumns => (false, true, false),
            Symmetry::FlipRows => (false, false, true),
            Symmetry::Rotate180 => (false, true, true),
            Symmetry::Transpose => (true, false, false),
            Symmetry::Rotate90 => (true, true, false),
            Symmetry::Rotate270 => (true, false, true),
            Symmetry::AntiTranspose => (true, true, true),
        };
        let mut x = bits;
        if t {
            x = transpose(n, x);
        }
        if m {
            x = mirror_columns(n, x);
        }
        if f {
            x = flip_rows(n, x);
        }
        x
    }

    /// The image of a square.
    pub fn apply_square(self, size: Size, square: Square) -> Square {
        let b = self.apply(size, square.mask(size));
        Square::from_bit(size, b.trailing_zeros()).expect("a symmetry keeps squares on the board")
    }

    /// The symmetry that undoes this one.
    pub const fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Rotate90 => Symmetry::Rotate270,
            Symmetry::Rotate270 => Symmetry::Rotate90,
            s => s,
        }
    }

    /// The image of a position (the side to move is kept).
    pub fn apply_position(self, position: &Position) -> Position {
        let size = position.size();
        let (p, o) = position.raw();
        Position::from_player(size, self.apply(size, p), self.apply(size, o), position.to_move())
            .expect("a symmetry keeps a position well formed")
    }
}

/// Column `c` moves to column `n-1-c`.
fn mirror_columns(n: usize, x: u64) -> u64 {
    let mut out = 0;
    for c in 0..n {
        let col = x & column_mask(n, c);
        let d = n as i32 - 1 - 2 * c as i32;
        out |= if d >= 0 { col >> d } else { col << -d };
    }
    out
}

/// Row `r` moves to row `n-1-r`.
fn flip_rows(n: usize, x: u64) -> u64 {
    let mut out = 0;
    for r in 0..n {
        let row = x & row_mask(n, r);
        let d = (n as i32 - 1 - 2 * r as i32) * n as i32;
        out |= if d >= 0 { row >> d } else { row << -d };
    }
    out
}

/// The square at (`c`, `r`) moves to (`r`, `c`): the diagonal `r - c = k` shifts by `k(n-1)` bits.
fn transpose(n: usize, x: u64) -> u64 {
    let mut out = x & diagonal_mask(n, 0);
    for k in 1..n as i32 {
        let shift = k as u32 * (n as u32 - 1);
        out |= (x & diagonal_mask(n, k)) << shift;
        out |= (x & diagonal_mask(n, -k)) >> shift;
    }
    out & full_mask(n)
}

/// The squares with `row - col == k`.
fn diagonal_mask(n: usize, k: i32) -> u64 {
    let mut m = 0;
    for c in 0..n as i32 {
        let r = c + k;
        if r >= 0 && r < n as i32 {
            m |= 1u64 << bit(n, c as usize, r as usize);
        }
    }
    m
}

/// The canonical key of a position: the smallest `(player, opponent)` pair among its eight
/// images, with the symmetry that gives it. Symmetric twins share the key.
///
/// ```
/// use othello_explorer::{Position, Size, board::symmetry::canonical};
/// let a = Position::start(Size::Eight).play("f5".parse().unwrap()).unwrap();
/// let b = Position::start(Size::Eight).play("c4".parse().unwrap()).unwrap();
/// assert_eq!(canonical(&a).0, canonical(&b).0);
/// ```
pub fn canonical(position: &Position) -> ((u64, u64), Symmetry) {
    let size = position.size();
    let (p, o) = position.raw();
    Symmetry::ALL
        .iter()
        .map(|&s| ((s.apply(size, p), s.apply(size, o)), s))
        .min_by_key(|(key, _)| *key)
        .expect("eight symmetries")
}
